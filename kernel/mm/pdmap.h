/*
 * The paging device (pd=SIZE, kernel/mm/pdmap.c): a small fast block
 * device between memory and the disk, as Multics' bulk store was
 * (docs/memory.md, "The paging device").
 *
 * Every page that goes out still has its slot on the disk, the name its
 * page-table entry keeps (swapspace.h). The paging device holds the
 * newest of those pages: its map says, for a disk slot, which record of
 * the device has the page now. pc=daemon's write-behind writes to a
 * record; when free records run low the paging-device manager moves the
 * oldest pages to their disk slots (read from the device, write to the
 * disk: the paper's RWS) and frees their records. A fault reads its page
 * from the device if the map names a record, else from the disk.
 *
 * The records are used as a ring, oldest first: the write-behind takes
 * the record after the newest, the manager frees from the oldest on. A
 * record whose page died (read back by a fault, or unmapped) is dead; the
 * manager reclaims it, and its disk slot, when the ring's tail reaches it,
 * with no I/O.
 *
 * Lock: "pdmap" (spin, rank 50): the map and the records' states; nothing
 * is taken under it. The manager's moves run with it let go.
 */
#ifndef FAULTLINE_PDMAP_H
#define FAULTLINE_PDMAP_H

#include "types.h"
#include "blk.h"

#define PD_NONE UINT32_MAX

/* Boot, after swap_init: with pd=, the record table from memory, one line
 * said. */
void     pdmap_init(void);
bool     pdmap_present(void);

/* The write-behind (the paging-device manager): a record for the page of
 * disk slot `slot`, its write started into req; PD_NONE if no record is
 * free (the page then goes to the disk). pdmap_written ends it, the write
 * waited for (ok or not: a failed one's slot is freed by its owner, which
 * kills the record through pdmap_slot_dies). */
uint32_t pdmap_write_start(uint32_t slot, struct blk_req *req, paddr_t pa);
void     pdmap_written(uint32_t rec);

/* A fault's read of slot's page into pa: 1 if the paging device does not
 * have it (read the disk), else 0 or -EIO, the read done from the device. */
int      pdmap_read(uint32_t slot, paddr_t pa);

/* The page of slot died (swap_free): true if the paging device holds it;
 * its record is then dead and the manager frees the record and the slot. */
bool     pdmap_slot_dies(uint32_t slot);

/* The paging-device manager, before a batch of write-behind: while fewer
 * than the low mark of records are free, frees the oldest (dead ones at
 * once, live ones moved to the disk) until the high mark are. Returns the
 * pages moved. */
uint32_t pdmap_make_room(void);

/* Gauges for vmstat. */
void     pdmap_usage(uint64_t *total, uint64_t *free);

#endif
