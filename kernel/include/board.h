/* What the device tree and the command line said at boot (read-only after). */
#ifndef FAULTLINE_BOARD_H
#define FAULTLINE_BOARD_H

#include "fdt.h"
#include "param.h"

extern struct board_info board;
extern struct boot_params params;

#endif
