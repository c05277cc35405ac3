/* Every file SVC, with the answers printed: run under the Python executive's FAT backend
 * and under the C executive's, the output must be the same (tests/port/test_fat.py). */
#include <stdio.h>
#include <string.h>
#include <hsx_fs.h>

static void say(const char *what, int result) { printf("%s -> %d\n", what, result); }

static void list(const char *path)
{
    char names[512];
    int n = hsx_fs_listdir(path, names, sizeof names - 1);
    if (n < 0) {
        printf("ls %s -> %d\n", path, n);
        return;
    }
    names[n] = 0;
    printf("ls %s:\n%s\n", path, names);
}

int main(void)
{
    char buf[64];
    int fd, n;
    say("mkdir /Logs", hsx_fs_mkdir("/Logs"));
    say("mkdir /Logs again", hsx_fs_mkdir("/Logs"));
    fd = hsx_fs_open("/Logs/A long name, with spaces.txt", HSX_O_RDWR | HSX_O_CREAT);
    say("open new", fd >= 0);
    say("write", hsx_fs_write(fd, "0123456789", 10));
    say("seek 4", hsx_fs_seek(fd, 4, 0));
    n = hsx_fs_read(fd, buf, sizeof buf);
    buf[n > 0 ? n : 0] = 0;
    printf("read %d: %s\n", n, buf);
    say("seek end-2", hsx_fs_seek(fd, -2, 2));
    say("write at end-2", hsx_fs_write(fd, "xyz", 3));
    say("close", hsx_fs_close(fd));
    say("close again", hsx_fs_close(fd));
    fd = hsx_fs_open("/Logs/A long name, with spaces.txt", HSX_O_WRONLY | HSX_O_APPEND);
    say("append", hsx_fs_write(fd, "!", 1));
    say("read a write-only file", hsx_fs_read(fd, buf, 4));
    hsx_fs_close(fd);
    fd = hsx_fs_open("/Logs/A long name, with spaces.txt", HSX_O_RDONLY);
    n = hsx_fs_read(fd, buf, sizeof buf);
    buf[n > 0 ? n : 0] = 0;
    printf("whole %d: %s\n", n, buf);
    say("write a read-only file", hsx_fs_write(fd, "no", 2));
    hsx_fs_close(fd);
    say("open missing", hsx_fs_open("/missing.txt", HSX_O_RDONLY));
    say("open a directory", hsx_fs_open("/Logs", HSX_O_RDONLY));
    say("open above the root", hsx_fs_open("/../escape.txt", HSX_O_RDWR | HSX_O_CREAT));
    fd = hsx_fs_open("/Logs/short.txt", HSX_O_RDWR | HSX_O_CREAT);
    hsx_fs_write(fd, "short", 5);
    hsx_fs_close(fd);
    fd = hsx_fs_open("/Logs/short.txt", HSX_O_RDWR | HSX_O_TRUNC);
    say("truncated, then read", hsx_fs_read(fd, buf, 8));
    hsx_fs_close(fd);
    fd = hsx_fs_open("/Logs/flags.txt", 0);                 /* 0: RDWR | CREAT */
    say("flags 0: write", hsx_fs_write(fd, "abc", 3));
    hsx_fs_seek(fd, 0, 0);
    say("flags 0: read", hsx_fs_read(fd, buf, 8));
    hsx_fs_close(fd);
    fd = hsx_fs_open("/Logs/flags.txt", HSX_O_RDONLY | HSX_O_TRUNC);
    say("TRUNC without write access: read", hsx_fs_read(fd, buf, 8));
    hsx_fs_close(fd);
    fd = hsx_fs_open("/Logs/flags.txt", HSX_O_APPEND);      /* no access mode: RDWR */
    say("no access mode: append", hsx_fs_write(fd, "d", 1));
    hsx_fs_seek(fd, 0, 0);
    say("no access mode: read", hsx_fs_read(fd, buf, 8));
    hsx_fs_close(fd);
    fd = hsx_fs_open("/Logs/empty.txt", HSX_O_RDONLY | HSX_O_CREAT);
    say("created read-only", fd >= 0);
    say("created read-only: write", hsx_fs_write(fd, "x", 1));
    hsx_fs_close(fd);
    say("delete flags.txt", hsx_fs_delete("/Logs/flags.txt"));
    say("delete empty.txt", hsx_fs_delete("/Logs/empty.txt"));
    list("/");
    list("/Logs");
    list("/missing");
    say("rename", hsx_fs_rename("/Logs/short.txt", "/Logs/renamed.txt"));
    say("rename onto an existing file", hsx_fs_rename("/Logs/renamed.txt",
                                                      "/Logs/A long name, with spaces.txt"));
    say("rename missing", hsx_fs_rename("/nope", "/nope2"));
    say("delete", hsx_fs_delete("/Logs/renamed.txt"));
    say("delete missing", hsx_fs_delete("/Logs/renamed.txt"));
    list("/Logs");
    return 0;
}
