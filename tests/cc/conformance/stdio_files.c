/* FILE streams over the file system: write, read back, fgets/fputs/fprintf, fseek and
 * ftell in every direction, append mode, "r+" updates, ungetc, feof/ferror, rename
 * and remove, and errors for files that do not exist. */
#include <stdio.h>
#include <string.h>
#include <errno.h>

int main(void) {
    FILE *f = fopen("data.txt", "w");
    if (!f) { printf("open failed\n"); return 1; }
    for (int i = 0; i < 5; i++)
        fprintf(f, "line %d: %s\n", i, i % 2 ? "odd" : "even");
    fputs("last line\n", f);
    printf("ftell after writing: %ld\n", ftell(f));
    fclose(f);

    f = fopen("data.txt", "r");
    char line[64];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        printf("[%s]", line);
        n++;
    }
    printf("\n%d lines, eof=%d error=%d\n", n, feof(f) != 0, ferror(f) != 0);
    fseek(f, 5, SEEK_SET);
    long at = ftell(f);
    printf("at %ld: %c\n", at, fgetc(f));
    fseek(f, -10, SEEK_END);
    fgets(line, sizeof line, f);
    printf("tail: %s", line);
    fseek(f, 0, SEEK_SET);
    fseek(f, 3, SEEK_CUR);
    int c = fgetc(f);
    ungetc('X', f);
    long pos = ftell(f);
    int again = fgetc(f);
    printf("%c %c %ld %ld\n", c, again, pos, ftell(f));
    rewind(f);
    char word[8];
    size_t got = fread(word, 1, 7, f);
    word[got] = 0;
    printf("fread %u: %s\n", (unsigned)got, word);
    fclose(f);

    f = fopen("data.txt", "a");
    fprintf(f, "appended\n");
    fclose(f);
    f = fopen("data.txt", "r+");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    fputs("LINE", f);
    fseek(f, 0, SEEK_SET);
    fgets(line, sizeof line, f);
    printf("size %ld first %s", size, line);
    fclose(f);

    unsigned char bytes[300];
    for (int i = 0; i < 300; i++)
        bytes[i] = (unsigned char)(i * 7);
    f = fopen("blob.bin", "wb");
    printf("fwrite %u\n", (unsigned)fwrite(bytes, 3, 100, f));
    fclose(f);
    memset(bytes, 0, sizeof bytes);
    f = fopen("blob.bin", "rb");
    size_t items = fread(bytes, 4, 100, f);
    printf("fread %u items, eof=%d, byte[299]=%u\n", (unsigned)items, feof(f) != 0, bytes[299]);
    fclose(f);

    printf("rename %d\n", rename("blob.bin", "moved.bin"));
    printf("old %d\n", fopen("blob.bin", "r") == NULL);
    int first = remove("moved.bin");
    printf("remove %d %d\n", first, remove("moved.bin"));
    errno = 0;
    f = fopen("missing/nothing.txt", "r");
    printf("missing: %d errno=%d (%s)\n", f == NULL, errno, strerror(errno));
    remove("data.txt");
    return 0;
}
