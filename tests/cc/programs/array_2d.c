#include <stdio.h>
static int grid[8][8];
static int neighbours(int r, int c) {
    int n = 0;
    for (int dr = -1; dr <= 1; dr++) for (int dc = -1; dc <= 1; dc++) {
        if (!dr && !dc) continue;
        int rr = (r + dr + 8) % 8, cc = (c + dc + 8) % 8;
        n += grid[rr][cc];
    }
    return n;
}
int main(void) {
    grid[1][2] = grid[2][3] = grid[3][1] = grid[3][2] = grid[3][3] = 1;
    for (int gen = 0; gen < 8; gen++) {
        int next[8][8];
        for (int r = 0; r < 8; r++) for (int c = 0; c < 8; c++) {
            int n = neighbours(r, c);
            next[r][c] = grid[r][c] ? (n == 2 || n == 3) : n == 3;
        }
        for (int r = 0; r < 8; r++) for (int c = 0; c < 8; c++) grid[r][c] = next[r][c];
    }
    int alive = 0;
    for (int r = 0; r < 8; r++) { for (int c = 0; c < 8; c++) { putchar(grid[r][c] ? '#' : '.'); alive += grid[r][c]; } putchar('\n'); }
    return alive;
}
