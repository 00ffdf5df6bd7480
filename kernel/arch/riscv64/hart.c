/*
 * Per-hart hardware setup, secondary hart start, timer, IPIs, power-off and
 * backtraces: the riscv64 implementation of arch_api.h.
 */
#include "arch_api.h"
#include "cpu.h"
#include "board.h"
#include "kstring.h"
#include <arch/sbi.h>
#include <faultline/errno.h>

extern char trap_vector[];
extern char _secondary_start[];

/* sifive,test0 finisher commands (QEMU hw/misc/sifive_test.c) */
#define TEST_FINISHER_FAIL  0x3333
#define TEST_FINISHER_PASS  0x5555
#define TEST_CODE_SHIFT     16

const char *arch_board_unsupported(void)
{
    if (!board.arch.has_zbb)
        return "the Zbb extension (clz, for the meters' histograms); "
               "QEMU 7.2's virt harts have it";
    return NULL;
}

void arch_hart_init(struct cpu *c)
{
    arch_cpu_set_self(c);
    csr_write(sscratch, 0);                 /* "in kernel" for trap_vector */
    csr_write(stvec, (uint64_t)trap_vector);
    /* SUM stays set: copies to and from user memory need no CSR flips. */
    csr_set(sstatus, SSTATUS_SUM);
    csr_clear(sstatus, SSTATUS_FS);         /* no FP: an FP instruction is illegal */
    csr_write(scounteren, SCOUNTEREN_CY | SCOUNTEREN_TM | SCOUNTEREN_IR);
    csr_write(sie, SIE_SSIE | SIE_STIE | SIE_SEIE);
}

int arch_hart_start(uint32_t hartid, uint64_t opaque)
{
    uint64_t entry_pa = KVA_TO_PA((uint64_t)_secondary_start);
    struct sbiret r = sbi_call(SBI_EXT_HSM, SBI_HSM_HART_START, hartid, entry_pa, opaque);
    return r.error ? -EIO : 0;
}

bool arch_hart_stopped(uint32_t hartid)
{
    struct sbiret r = sbi_call(SBI_EXT_HSM, SBI_HSM_HART_STATUS, hartid, 0, 0);
    return r.error == 0 && r.value == SBI_HSM_STATE_STOPPED;
}

void arch_context_init(struct context *c, uint64_t stack_top, void (*entry)(void))
{
    *c = (struct context){ 0 };
    c->ra = (uint64_t)entry;
    c->sp = stack_top;
}

void arch_trapframe_init(struct trapframe *tf, uint64_t pc, uint64_t sp, uint64_t a0, uint64_t a1)
{
    /* Only the user registers start afresh; the kernel's fields stay. */
    memset(tf, 0, offsetof(struct trapframe, kernel_sp));
    tf->sepc = pc;
    tf->sp = sp;
    tf->a0 = a0;
    tf->a1 = a1;
}

void arch_timer_program(uint64_t deadline)
{
    sbi_call(SBI_EXT_TIME, 0, deadline, 0, 0);
}

/*
 * Each hart's SETSSIP register in the ACLINT SSWI, by hardware hart id;
 * NULL where the board has none (no aclint, a hart it does not reach, or
 * an id beyond the table), and the IPI goes through the firmware instead.
 * Written once by arch_ipi_init before any other hart runs, read-only after.
 *
 * Why: an SBI IPI is an ecall into OpenSBI on the sender (about 530
 * instructions) and a machine-mode software interrupt on the target that
 * OpenSBI turns into a supervisor one (about 280 more). The SSWI sets the
 * target's sip.SSIP with one store; nothing else changes on the target,
 * which takes and clears the same interrupt either way.
 */
static volatile uint32_t *sswi_setssip[MAX_HARTS];

/* Writing 1 raises the SSIP of the register's hart (RISC-V ACLINT spec). */
#define SSWI_SETSSIP_RAISE 1u

const char *arch_ipi_init(void)
{
    if (!board.arch.sswi.present)
        return "SBI";
    bool any = false;
    for (int h = 0; h < board.nharts; h++) {
        uint32_t reg = board.arch.sswi_reg[h];
        if (reg == FDT_NO_SSWI_REG || board.hart_ids[h] >= MAX_HARTS)
            continue;
        /* The device lies in the direct map, which covers all physical
         * addresses below the end of RAM (kmap_init), like the PLIC. */
        sswi_setssip[board.hart_ids[h]] =
            (volatile uint32_t *)PA_TO_KVA(board.arch.sswi.base + (uint64_t)reg * SSWI_REG_BYTES);
        any = true;
    }
    return any ? "ACLINT SSWI" : "SBI";
}

void arch_ipi_send(uint32_t hartid)
{
    volatile uint32_t *setssip = hartid < MAX_HARTS ? sswi_setssip[hartid] : NULL;
    if (setssip) {
        /* The caller's request bits (plain memory) must be visible before
         * the target can take the interrupt: order them before the device
         * write, which the AMO's release alone does not cover for I/O. */
        __asm__ volatile("fence w, o" ::: "memory");
        *setssip = SSWI_SETSSIP_RAISE;
        return;
    }
    sbi_call(SBI_EXT_IPI, 0, 1UL, hartid, 0);   /* mask bit 0 relative to base = hartid */
}

/* Both ways of sending end in sip.SSIP; the SSWI keeps no state of its own
 * (its register reads as 0), so clearing the bit is the whole acknowledgement. */
void arch_ipi_clear(void)
{
    csr_clear(sip, 1UL << IRQ_S_SOFT);
}

_Noreturn void arch_poweroff(int code)
{
    if (board.test.present) {
        volatile uint32_t *finisher = (volatile uint32_t *)PA_TO_KVA(board.test.base);
        *finisher = code == 0 ? TEST_FINISHER_PASS
                              : ((uint32_t)code << TEST_CODE_SHIFT) | TEST_FINISHER_FAIL;
    }
    sbi_call(SBI_EXT_SRST, SBI_SRST_SHUTDOWN,
             code == 0 ? SBI_SRST_REASON_NONE : SBI_SRST_REASON_FAILURE, 0, 0);
    for (;;)
        arch_wait_for_interrupt();
}

/*
 * With -fno-omit-frame-pointer, s0 points just above each frame's saved
 * return address (fp-8) and caller's frame pointer (fp-16). Stop at 0, at
 * anything that is not a kernel address, or after a sane depth.
 */
#define BACKTRACE_MAX_DEPTH 24

void arch_backtrace(uint64_t pc, uint64_t fp, void (*emit)(int depth, uint64_t pc))
{
    int depth = 0;
    emit(depth++, pc);
    while (fp >= KERNEL_DIRECT_BASE && (fp & 7) == 0 && depth < BACKTRACE_MAX_DEPTH) {
        uint64_t ra = ((uint64_t *)fp)[-1];
        uint64_t prev = ((uint64_t *)fp)[-2];
        if (ra < KERNEL_DIRECT_BASE)
            break;
        emit(depth++, ra);
        if (prev <= fp)
            break;
        fp = prev;
    }
}
