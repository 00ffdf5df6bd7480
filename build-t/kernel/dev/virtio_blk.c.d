build-t/kernel/dev/virtio_blk.c.o: kernel/dev/virtio_blk.c \
 kernel/dev/virtio_blk_dev.h kernel/include/blk.h kernel/include/types.h \
 kernel/include/blk_latency.h kernel/dev/virtio_mmio.h \
 kernel/include/types.h kernel/include/board.h kernel/include/fdt.h \
 kernel/include/config.h kernel/arch/riscv64/include/arch/board.h \
 kernel/include/config.h kernel/include/param.h kernel/include/irq.h \
 kernel/include/ktime.h kernel/include/param.h kernel/include/cpu.h \
 kernel/include/arch_api.h kernel/arch/riscv64/include/arch/arch.h \
 kernel/arch/riscv64/include/arch/riscv.h \
 kernel/arch/riscv64/include/arch/layout.h kernel/include/irq.h \
 kernel/include/lockrank.h kernel/include/frame.h \
 kernel/include/coremap.h kernel/include/meter.h kernel/include/cpu.h \
 include/faultline/abi.h kernel/include/pcmeter.h kernel/include/proc.h \
 kernel/include/spinlock.h kernel/include/spinlock.h \
 kernel/include/printk.h kernel/include/kstring.h \
 include/faultline/errno.h
kernel/dev/virtio_blk_dev.h:
kernel/include/blk.h:
kernel/include/types.h:
kernel/include/blk_latency.h:
kernel/dev/virtio_mmio.h:
kernel/include/types.h:
kernel/include/board.h:
kernel/include/fdt.h:
kernel/include/config.h:
kernel/arch/riscv64/include/arch/board.h:
kernel/include/config.h:
kernel/include/param.h:
kernel/include/irq.h:
kernel/include/ktime.h:
kernel/include/param.h:
kernel/include/cpu.h:
kernel/include/arch_api.h:
kernel/arch/riscv64/include/arch/arch.h:
kernel/arch/riscv64/include/arch/riscv.h:
kernel/arch/riscv64/include/arch/layout.h:
kernel/include/irq.h:
kernel/include/lockrank.h:
kernel/include/frame.h:
kernel/include/coremap.h:
kernel/include/meter.h:
kernel/include/cpu.h:
include/faultline/abi.h:
kernel/include/pcmeter.h:
kernel/include/proc.h:
kernel/include/spinlock.h:
kernel/include/spinlock.h:
kernel/include/printk.h:
kernel/include/kstring.h:
include/faultline/errno.h:
