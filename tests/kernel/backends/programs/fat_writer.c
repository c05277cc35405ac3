/* Appends numbered 64-byte lines to /Log/Cut Test.log for ever, reporting each on stdout
   once its write has returned (the tests kill it; a restart goes on from the file's end). */
#include <hsx_fs.h>
#include <stdio.h>

#define LINE 64

int main(void) {
    char line[LINE + 1];
    hsx_fs_mkdir("/Log");
    int fd = hsx_fs_open("/Log/Cut Test.log", HSX_O_RDWR | HSX_O_CREAT | HSX_O_APPEND);
    int i = hsx_fs_seek(fd, 0, HSX_SEEK_END) / LINE;
    for (;; i++) {
        sprintf(line, "line %06d of the cut test, padded to sixty-four bytes .......\n", i);
        if (hsx_fs_write(fd, line, LINE) != LINE) {
            printf("write failed\n");
            return 1;
        }
        if (i % 16 == 0) {          /* directory entries change too */
            int t = hsx_fs_open("/Log/Temporary Entry.tmp", HSX_O_WRONLY | HSX_O_CREAT | HSX_O_TRUNC);
            hsx_fs_write(t, line, LINE);
            hsx_fs_close(t);
            hsx_fs_delete("/Log/Temporary Entry.tmp");
        }
        printf("%d\n", i);
    }
}
