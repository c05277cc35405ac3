/* malloc/free/calloc/realloc over the task's heap.
 *
 * The heap runs from the end of bss (`__hsx_heap_base`, placed by crtend.mvasm) up to
 * the heap end the executive reports (EXEC MEMINFO: the stack's low guard, whatever
 * stack size the task was given).  As a second line of defence the heap never grows to
 * within HSX_STACK_MARGIN bytes of the current SP.
 *
 * Blocks are laid out back to back, each with a one-word header: the block size in
 * bytes (a multiple of 8, header included) with bit 0 set when it is in use.  Search
 * is first fit; freeing merges with following free blocks and gives a free block at
 * the top back to the unused area. */
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#define HSX_STACK_MARGIN 256
#define ALIGN 8
#define USED 1u

extern char __hsx_heap_base[];

static uint32_t *heap_start;   /* first block header */
static uint32_t *heap_top;     /* end of the last block */
static uintptr_t heap_limit;

static uintptr_t current_sp(void) {
    uintptr_t sp;
    __asm__ volatile("MOV %0, R15" : "=r"(sp));
    return sp;
}

static void heap_init(void) {
    /* Headers sit 4 bytes below an 8-aligned payload. */
    uintptr_t base = ((uintptr_t)__hsx_heap_base + ALIGN + 3) & ~(uintptr_t)(ALIGN - 1);
    uintptr_t layout_start, layout_end;
    /* EXEC MEMINFO: R0 = heap start, R1 = heap end, as the executive laid the task out. */
    __asm__ volatile("SVC 6, 8" : "=r"(layout_start), "=r"(layout_end) : : "memory");
    (void)layout_start;
    heap_start = heap_top = (uint32_t *)(base - 4);
    heap_limit = layout_end;
}

static uint32_t *next_block(uint32_t *block) {
    return (uint32_t *)((char *)block + (*block & ~USED));
}

void *malloc(size_t size) {
    if (!heap_start)
        heap_init();
    if (size > 0x7FFFFFF0u)
        return NULL;
    uint32_t need = (uint32_t)(size + 4 + ALIGN - 1) & ~(uint32_t)(ALIGN - 1);
    if (need < ALIGN * 2)
        need = ALIGN * 2;
    for (uint32_t *b = heap_start; b < heap_top; b = next_block(b)) {
        if (*b & USED)
            continue;
        uint32_t have = *b;
        while (next_block(b) < heap_top && !(*next_block(b) & USED))
            have = *b = have + *next_block(b);        /* merge free neighbours */
        if (have >= need) {
            if (have - need >= ALIGN * 2) {
                *b = need;
                *next_block(b) = have - need;
            }
            *b |= USED;
            return b + 1;
        }
    }
    uintptr_t end = (uintptr_t)heap_top + need;
    uintptr_t sp_limit = current_sp() - HSX_STACK_MARGIN;
    if (end > heap_limit || end > sp_limit || end < (uintptr_t)heap_top)
        return NULL;
    uint32_t *b = heap_top;
    *b = need | USED;
    heap_top = (uint32_t *)end;
    return b + 1;
}

void free(void *ptr) {
    if (!ptr)
        return;
    uint32_t *b = (uint32_t *)ptr - 1;
    *b &= ~USED;
    while (next_block(b) < heap_top && !(*next_block(b) & USED))
        *b += *next_block(b);
    if (next_block(b) == heap_top)
        heap_top = b;
}

void *calloc(size_t count, size_t size) {
    size_t total = count * size;
    if (size && total / size != count)
        return NULL;
    void *p = malloc(total);
    if (p)
        memset(p, 0, total);
    return p;
}

void *realloc(void *ptr, size_t size) {
    if (!ptr)
        return malloc(size);
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    uint32_t *b = (uint32_t *)ptr - 1;
    size_t have = (*b & ~USED) - 4;
    if (have >= size)
        return ptr;
    void *p = malloc(size);
    if (p) {
        memcpy(p, ptr, have);
        free(ptr);
    }
    return p;
}

/* Alignments above 8: a larger block, with the gap before the aligned payload split
 * off as a free block of its own (so free() works on the result as usual). */
void *aligned_alloc(size_t alignment, size_t size) {
    if (alignment <= ALIGN)
        return malloc(size);
    if (alignment & (alignment - 1))
        return NULL;
    char *p = malloc(size + alignment + ALIGN * 2);
    if (!p)
        return NULL;
    uintptr_t q = ((uintptr_t)p + ALIGN * 2 + alignment - 1) & ~(uintptr_t)(alignment - 1);
    uint32_t *block = (uint32_t *)p - 1;
    uint32_t total = *block & ~USED;
    uint32_t gap = (uint32_t)(q - (uintptr_t)p);
    *block = gap;                                   /* free */
    *(uint32_t *)(q - 4) = (total - gap) | USED;
    return (void *)q;
}
