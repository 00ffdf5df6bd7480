/* Host unit test of the riscv64 port's inline leaf calls
 * (kernel/arch/riscv64/include/arch/pte.h): mmu_leaf_empty says EMPTY for
 * exactly the entries mmu_leaf_read decodes as LEAF_EMPTY (not valid, no
 * software state bit), whatever else the entry holds. */
#include "check.h"
#include <arch/pte.h>

#define SLOT_PPN(slot) ((pte_t)(slot) << PTE_PPN_SHIFT)

static void test_empty_entries(void)
{
    pte_t e = 0;
    CHECK(mmu_leaf_empty(&e));
    /* Bits the hardware ignores with V clear do not make a state. */
    e = PTE_A | PTE_D | PTE_U;
    CHECK(mmu_leaf_empty(&e));
}

static void test_other_states(void)
{
    const pte_t states[] = {
        PTE_V | PTE_R | PTE_U | SLOT_PPN(0x80123),                    /* PRESENT */
        PTE_V | PTE_R | PTE_W | PTE_A | PTE_D | SLOT_PPN(0x80124),    /* PRESENT, dirty */
        PTE_SW_HIDDEN | PTE_R | PTE_W | PTE_U | SLOT_PPN(0x80125),    /* HIDDEN */
        PTE_SW_SWAPPED | SLOT_PPN(7),                                 /* SWAPPED */
        PTE_SW_SWAPPED,                                               /* SWAPPED, slot 0 */
        PTE_SW_DISCARDED,                                             /* DISCARDED */
        PTE_SW_DISCARDED | PTE_SW_TRANSIT | SLOT_PPN(9),              /* INCOMING */
        PTE_SW_DISCARDED | PTE_SW_TRANSIT | PTE_SW_OUT | SLOT_PPN(9), /* OUTGOING */
    };
    for (unsigned i = 0; i < sizeof states / sizeof states[0]; i++) {
        pte_t e = states[i];
        CHECK(!mmu_leaf_empty(&e));
    }
}

/* A revealed HIDDEN entry is valid again: no longer empty, nor hidden. */
static void test_reveal(void)
{
    pte_t e = PTE_SW_HIDDEN | PTE_R | PTE_U | SLOT_PPN(0x80126);
    mmu_leaf_reveal(&e);
    CHECK(!mmu_leaf_empty(&e));
    CHECK(e & PTE_V);
    CHECK(e & PTE_A);
    CHECK_EQ(e & PTE_SW_HIDDEN, 0);
}

int main(void)
{
    test_empty_entries();
    test_other_states();
    test_reveal();
    return check_summary("pte");
}
