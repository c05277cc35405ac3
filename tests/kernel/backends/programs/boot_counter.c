/* Counts its runs in a persistent value and appends each run to /Boots.log: the
   configuration file decides where both live. */
#include <hsx_fs.h>
#include <hsx_value.h>
#include <stdio.h>

HSX_VALUE_JSON("{\"group\": 1, \"id\": 1, \"name\": \"boots\", \"init\": 0, \"persist_key\": 7}");

int main(void) {
    float boots = -1;
    char line[32];
    hsx_val_get(hsx_val_oid(1, 1), &boots);
    int n = sprintf(line, "boot %d\n", (int)boots);
    int fd = hsx_fs_open("/Boots.log", HSX_O_WRONLY | HSX_O_CREAT | HSX_O_APPEND);
    printf("boot %d, log %d\n", (int)boots, hsx_fs_write(fd, line, n));
    hsx_fs_close(fd);
    return (int)hsx_val_set(hsx_val_oid(1, 1), boots + 1);
}
