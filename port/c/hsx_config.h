/* HSX C executive: the one configuration header (docs/port.md, "Variants and sizes").
 *
 * A build chooses a variant with -DHSX_VARIANT=HSX_VARIANT_MINIMAL|DEVELOPMENT|FULL
 * (default: development) and may override any size below with -D. A board can also put
 * its choices in a header of its own and name it with -DHSX_CONFIG_FILE="board_config.h";
 * it is included first, so what it defines wins. Every array in the executive is sized
 * here: nothing is allocated at run time.
 */
#ifndef HSX_CONFIG_H
#define HSX_CONFIG_H

#ifdef HSX_CONFIG_FILE
#include HSX_CONFIG_FILE
#endif

#define HSX_VARIANT_MINIMAL 1
#define HSX_VARIANT_DEVELOPMENT 2
#define HSX_VARIANT_FULL 3

#ifndef HSX_VARIANT
#define HSX_VARIANT HSX_VARIANT_DEVELOPMENT
#endif

/* What each variant offers (DESIGN.md §8). */
#define HSX_HAS_DEBUG (HSX_VARIANT >= HSX_VARIANT_DEVELOPMENT)  /* breakpoints, run-to, stack, watches, trace */
#define HSX_HAS_EVENTS (HSX_VARIANT >= HSX_VARIANT_DEVELOPMENT) /* events.subscribe and the event queue */
#define HSX_HAS_OBSERVERS (HSX_VARIANT >= HSX_VARIANT_FULL)     /* observer sessions */

#if HSX_VARIANT == HSX_VARIANT_MINIMAL
#define HSX_VARIANT_NAME "minimal"
#elif HSX_VARIANT == HSX_VARIANT_DEVELOPMENT
#define HSX_VARIANT_NAME "development"
#elif HSX_VARIANT == HSX_VARIANT_FULL
#define HSX_VARIANT_NAME "full"
#else
#error "HSX_VARIANT must be HSX_VARIANT_MINIMAL, _DEVELOPMENT or _FULL"
#endif

/* -- tasks ------------------------------------------------------------------------- */
#ifndef HSX_MAX_TASKS                 /* live and ended tasks listed by ps */
#define HSX_MAX_TASKS (HSX_VARIANT == HSX_VARIANT_MINIMAL ? 4 : 8)
#endif
#ifndef HSX_TASK_MEMORY               /* bytes of data address space per task (> 0x4000) */
#define HSX_TASK_MEMORY 0x8000u
#endif
#ifndef HSX_STACK_SIZE                /* default stack arena per task */
#define HSX_STACK_SIZE 0x800u
#endif
#ifndef HSX_CODE_ARENA                /* bytes of RAM for the code of images loaded over the link */
#define HSX_CODE_ARENA 0x10000u
#endif
#ifndef HSX_APP_NAME_MAX              /* bytes of an app name, with its NUL */
#define HSX_APP_NAME_MAX 32
#endif
#ifndef HSX_MAX_PRIORITY
#define HSX_MAX_PRIORITY 255
#endif

/* -- mailboxes, values, commands ---------------------------------------------------- */
#ifndef HSX_MAX_MAILBOXES             /* descriptors, each task's own included (stdio and inbox: 4) */
#define HSX_MAX_MAILBOXES (HSX_MAX_TASKS * 4 + 8)
#endif
#ifndef HSX_MAILBOX_POOL              /* bytes of message storage shared by all mailboxes */
#define HSX_MAILBOX_POOL 0x2000u
#endif
#ifndef HSX_MAILBOX_CAPACITY          /* default capacity of one mailbox, bytes */
#define HSX_MAILBOX_CAPACITY 256u
#endif
#ifndef HSX_MAX_MESSAGE               /* largest message */
#define HSX_MAX_MESSAGE 128u
#endif
#ifndef HSX_MAX_HANDLES               /* mailbox handles per task */
#define HSX_MAX_HANDLES 8
#endif
#ifndef HSX_MAX_VALUES
#define HSX_MAX_VALUES 32
#endif
#ifndef HSX_MAX_COMMANDS
#define HSX_MAX_COMMANDS 16
#endif
#ifndef HSX_NAME_POOL                 /* bytes for value/command names, groups and units */
#define HSX_NAME_POOL 512u
#endif
#ifndef HSX_MAX_SUBSCRIPTIONS         /* value subscriptions (VAL_SUB) in all tasks together */
#define HSX_MAX_SUBSCRIPTIONS 16
#endif
#ifndef HSX_MAX_FILES                 /* files open (SVC 0x04) in all tasks together */
#define HSX_MAX_FILES 8
#endif

/* -- debugging (development and full) ----------------------------------------------- */
#ifndef HSX_MAX_BREAKPOINTS           /* in all tasks together */
#define HSX_MAX_BREAKPOINTS 16
#endif
#ifndef HSX_MAX_WATCHES
#define HSX_MAX_WATCHES 4
#endif
#ifndef HSX_WATCH_BYTES               /* bytes one watch covers at most */
#define HSX_WATCH_BYTES 16
#endif
#ifndef HSX_TRACE_RECORDS             /* the trace ring: records in all tasks together */
#define HSX_TRACE_RECORDS (HSX_VARIANT == HSX_VARIANT_FULL ? 1024 : HSX_VARIANT == HSX_VARIANT_DEVELOPMENT ? 100 : 0)
#endif
#ifndef HSX_STACK_FRAMES              /* frames one stack.info walks at most */
#define HSX_STACK_FRAMES 32
#endif

/* -- the link ------------------------------------------------------------------------ */
#ifndef HSX_RX_WINDOW                 /* receive buffer, bytes: the window the hello advertises */
#define HSX_RX_WINDOW (HSX_VARIANT == HSX_VARIANT_FULL ? 2048 : 600)
#endif
#ifndef HSX_MAX_FRAME                 /* largest decoded frame body either way */
#define HSX_MAX_FRAME (HSX_VARIANT == HSX_VARIANT_FULL ? 1024 : 512)
#endif
#ifndef HSX_EVENT_QUEUE               /* bytes of encoded events waiting to be sent */
#define HSX_EVENT_QUEUE (HSX_VARIANT == HSX_VARIANT_FULL ? 8192 : HSX_VARIANT == HSX_VARIANT_DEVELOPMENT ? 1024 : 0)
#endif
#ifndef HSX_MAX_SESSIONS
#define HSX_MAX_SESSIONS (HSX_VARIANT == HSX_VARIANT_FULL ? 4 : 1)
#endif
#ifndef HSX_DMESG_KEEP                /* log entries dmesg keeps */
#define HSX_DMESG_KEEP 8
#endif
#ifndef HSX_HOST_HANDLES              /* mailbox handles the host may hold open (mailbox.open) */
#define HSX_HOST_HANDLES 4
#endif
#ifndef HSX_OUTPUT_KEEP               /* stdio recent: bytes of output kept per task */
#define HSX_OUTPUT_KEEP 128u
#endif

/* -- persistence ---------------------------------------------------------------------- */
#ifndef HSX_PERSIST_DEBOUNCE_MS       /* default debounce of a persistent value */
#define HSX_PERSIST_DEBOUNCE_MS 200u
#endif
#ifndef HSX_PERSIST_PENDING           /* debounced writes waiting at once (more: the oldest goes now) */
#define HSX_PERSIST_PENDING 8
#endif

/* -- code size ------------------------------------------------------------------------ */
/* A helper called from several places that -Os would copy into each of them (it does so
 * even for a function other files call): kept out of line, the image is smaller. */
#if defined(__GNUC__) || defined(__clang__)
#define HSX_NOINLINE __attribute__((noinline))
#else
#define HSX_NOINLINE
#endif
/* A file whose code runs seldom -- loading and checking images, metadata, persistence,
 * the debugger, the protocol's commands -- is compiled for the least flash even in a
 * -Os build (clang's minsize: what -Oz gives; about 3 KiB less in development). The
 * code that runs while tasks do (the scheduler, SVCs, mailboxes, values, the link's
 * framing) keeps -Os. GCC's -Os is already its smallest. A board's config file may
 * define all three empty. */
#ifndef HSX_COLD_CODE_BEGIN
#if defined(__clang__)
#define HSX_COLD_CODE_BEGIN \
    _Pragma("clang attribute push (__attribute__((minsize)), apply_to = function)")
#define HSX_COLD_CODE_END _Pragma("clang attribute pop")
#define HSX_COLD_FUNCTION __attribute__((minsize))      /* one, in a file kept at -Os */
#else
#define HSX_COLD_CODE_BEGIN
#define HSX_COLD_CODE_END
#define HSX_COLD_FUNCTION
#endif
#endif

#if HSX_MAX_FRAME > HSX_RX_WINDOW
#error "HSX_MAX_FRAME must not exceed HSX_RX_WINDOW (docs/wire.md)"
#endif

#endif
