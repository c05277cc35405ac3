/* The FILE structure, shared by the stdio sources (file.c, fileio.c, stdio.c, scanf.c). */
#ifndef HSX_STDIO_IMPL_H
#define HSX_STDIO_IMPL_H
#include <stdio.h>
#include <errno.h>
#include <hsx_fs.h>

#define FL_READ 0x01          /* opened for reading */
#define FL_WRITE 0x02         /* opened for writing */
#define FL_APPEND 0x04
#define FL_EOF 0x08
#define FL_ERR 0x10
#define FL_ALLOC 0x20         /* the FILE (and its buffer) came from malloc */

#define ST_IDLE 0
#define ST_READING 1          /* buf[pos..end) is read ahead of the descriptor's position */
#define ST_WRITING 2          /* buf[0..pos) is waiting to be written */

struct __hsx_file {
    int fd;
    unsigned char flags;
    unsigned char mode;       /* _IOFBF, _IOLBF, _IONBF */
    unsigned char state;
    int unget;                /* a character pushed back by ungetc, or EOF */
    unsigned char *buf;
    unsigned size;
    unsigned pos, end;
    struct __hsx_file *next;  /* streams opened by fopen, for fflush(NULL) and exit */
    char *tmpname;            /* tmpfile(): removed when closed */
};

extern FILE *__hsx_open_files;
extern void (*__hsx_stdio_flush_hook)(void);
void __hsx_stdio_flush(void);      /* stdout and stderr */

/* Get `f` ready to write (buffer emptied of read-ahead): 0, or EOF on error. */
int __hsx_begin_write(FILE *f);
/* Refill the read buffer: the first character, or EOF (end of file or error). */
int __hsx_refill(FILE *f);
/* Parse the mode string of fopen: open flags for hsx_fs_open, or -1. */
int __hsx_open_flags(const char *mode, int *exclusive);
#endif
