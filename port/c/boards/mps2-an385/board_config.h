/* The executive's sizes on the mps2-an385 (hsx_config.h reads this first: -DHSX_CONFIG_FILE).
 * The tasks get the memory and stack of the Python executive's `development` profile, as
 * the host build's do, so the same programs run on the board; a part with less RAM
 * lowers HSX_TASK_MEMORY, HSX_MAX_TASKS and HSX_CODE_ARENA here. (HSX_DECODE_AT_FETCH is a
 * compiler flag, not set here: hsx_vm.h does not read this header.) */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#define HSX_TASK_MEMORY 0x10000u
#define HSX_STACK_SIZE 0x2000u

#endif
