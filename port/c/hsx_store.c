/* HSX C executive: persistent values on an hsx_persist (NOR flash pages or FRAM).
 *
 * A log of CRC-checked 16-byte records in a ring of pages (the format is in
 * docs/port.md, "The value store"): a value's newest record wins. Records are only
 * ever appended into erased slots, so a power cut mid-write leaves at most that one
 * record torn, which its CRC rejects; nothing older is touched. When the head page
 * is full the log moves into the next page (always kept erased) and the oldest page's
 * records that are still the newest of their value are copied forward before it is
 * erased, so writes wear every page in turn. An interrupted move is finished at the
 * next start. Debounced writes (values.md "Persistence") wait in RAM meanwhile.
 */
#include "hsx_kernel.h"

HSX_COLD_CODE_BEGIN

#define SLOT 16u
#define PAGE_MAGIC 0x56585348u          /* "HSXV" little-endian */
#define FRAM_PAGE 256u                  /* the log's page on a store without erase */
#define MAX_DEFER_PERIODS 4u

static const hsx_persist *store;
static uint32_t page_size, pages, head, head_seq, append_slot, next_seq;

static struct pending {
    uint32_t app, due, latest;
    uint16_t key, raw;
    uint8_t used;
} pend[HSX_PERSIST_PENDING];

HSX_NOINLINE static void complain(const char *text)
{
    if (hsx_k_hal && hsx_k_hal->diagnostic)
        hsx_k_hal->diagnostic(text);
}

/* ---- slots ------------------------------------------------------------------------------ */

HSX_NOINLINE static int read_slot(uint32_t page, uint32_t slot, uint8_t *rec)
{
    return store->read(store->ctx, page * page_size + slot * SLOT, rec, SLOT) == 0;
}

static int erased(const uint8_t *rec)
{
    uint32_t i;
    for (i = 0; i < SLOT; i++)
        if (rec[i] != 0xFF)
            return 0;
    return 1;
}

HSX_NOINLINE static int record_ok(const uint8_t *rec)
{
    return hsx_k_le32(rec + 12) == hsx_k_crc32(0, rec, 12);
}

/* The page's sequence number when its header is valid (0: not a page of the log). */
static uint32_t page_seq(uint32_t page)
{
    uint8_t rec[SLOT];
    if (!read_slot(page, 0, rec) || hsx_k_le32(rec) != PAGE_MAGIC
            || hsx_k_le32(rec + 8) != hsx_k_crc32(0, rec, 8))
        return 0;
    return hsx_k_le32(rec + 4);
}

static int erase_page(uint32_t page)
{
    uint8_t ones[SLOT];
    uint32_t slot;
    if (store->erase)
        return store->erase(store->ctx, page * page_size) == 0;
    hsx_k_fill(ones, 0xFF, SLOT);
    for (slot = 0; slot < page_size / SLOT; slot++)
        if (store->write(store->ctx, page * page_size + slot * SLOT, ones, SLOT) != 0)
            return 0;
    return 1;
}

/* Erase the page unless it already is (erasing wears it). */
static int clean_page(uint32_t page)
{
    uint8_t rec[SLOT];
    uint32_t slot;
    for (slot = 0; slot < page_size / SLOT; slot++)
        if (!read_slot(page, slot, rec) || !erased(rec))
            return erase_page(page);
    return 1;
}

static int write_header(uint32_t page, uint32_t seq)
{
    uint8_t rec[SLOT];
    hsx_k_put32(rec, PAGE_MAGIC);
    hsx_k_put32(rec + 4, seq);
    hsx_k_put32(rec + 8, hsx_k_crc32(0, rec, 8));
    hsx_k_put32(rec + 12, 0xFFFFFFFFu);
    return store->write(store->ctx, page * page_size, rec, SLOT) == 0;
}

/* The newest valid record of (app, key) in the log, skipping page `except`. */
static int newest(uint32_t app, uint16_t key, uint32_t except, uint16_t *raw)
{
    uint8_t rec[SLOT];
    uint32_t page, slot, best = 0;
    int found = 0;
    for (page = 0; page < pages; page++) {
        if (page == except || !page_seq(page))
            continue;
        for (slot = 1; slot < page_size / SLOT; slot++) {
            if (!read_slot(page, slot, rec) || erased(rec) || !record_ok(rec))
                continue;
            if (hsx_k_le32(rec) == app && hsx_k_le16(rec + 4) == key
                    && (!found || (int32_t)(hsx_k_le32(rec + 8) - best) > 0)) {
                best = hsx_k_le32(rec + 8);
                *raw = hsx_k_le16(rec + 6);
                found = 1;
            }
        }
    }
    return found;
}

static int append_record(uint32_t app, uint16_t key, uint16_t raw);

/* Copy the records of `victim` (the oldest page) that are still the newest of their
 * value to the head, then erase it: it becomes the erased page after the head. */
static int collect(uint32_t victim)
{
    uint8_t rec[SLOT], later[SLOT];
    uint32_t slot, k, slots = page_size / SLOT;
    uint16_t raw;
    for (slot = 1; slot < slots; slot++) {
        int superseded = 0;
        if (!read_slot(victim, slot, rec) || erased(rec) || !record_ok(rec))
            continue;
        for (k = slot + 1; k < slots && !superseded; k++)
            superseded = read_slot(victim, k, later) && !erased(later) && record_ok(later)
                && hsx_k_le32(later) == hsx_k_le32(rec) && hsx_k_le16(later + 4) == hsx_k_le16(rec + 4);
        if (superseded || newest(hsx_k_le32(rec), hsx_k_le16(rec + 4), victim, &raw))
            continue;
        if (append_slot >= slots) {
            complain("value store: full (more distinct values than one page holds)");
            return 0;
        }
        if (!append_record(hsx_k_le32(rec), hsx_k_le16(rec + 4), hsx_k_le16(rec + 6)))
            return 0;
    }
    return erase_page(victim);
}

/* The head page is full: the log moves on into the erased page after it. */
static int next_page(void)
{
    uint32_t page = (head + 1) % pages;
    if (page_seq(page)) {               /* its records were never moved on: keep them */
        complain("value store: full (more distinct values than one page holds)");
        return 0;
    }
    if (!clean_page(page) || !write_header(page, head_seq + 1))
        return 0;
    head = page;
    head_seq++;
    append_slot = 1;
    page = (head + 1) % pages;
    return page == head || !page_seq(page) || collect(page);
}

static int append_record(uint32_t app, uint16_t key, uint16_t raw)
{
    uint8_t rec[SLOT];
    if (append_slot >= page_size / SLOT && !next_page())
        return 0;
    hsx_k_put32(rec, app);
    hsx_k_put16(rec + 4, key);
    hsx_k_put16(rec + 6, raw);
    hsx_k_put32(rec + 8, next_seq);
    hsx_k_put32(rec + 12, hsx_k_crc32(0, rec, 12));
    if (store->write(store->ctx, head * page_size + append_slot * SLOT, rec, SLOT) != 0) {
        complain("value store: a write failed");
        return 0;
    }
    append_slot++;
    next_seq++;
    return 1;
}

/* ---- mounting --------------------------------------------------------------------------------- */

void hsx_k_store_init(const hsx_persist *persist)
{
    uint8_t rec[SLOT];
    uint32_t page, slot, seq;
    hsx_k_fill(pend, 0, sizeof pend);
    store = 0;
    if (!persist)
        return;
    page_size = persist->page_size > 1 ? persist->page_size : FRAM_PAGE;
    pages = page_size && page_size % SLOT == 0 ? persist->size / page_size : 0;
    if (pages < 2) {
        complain("value store: needs at least two pages; values will not persist");
        return;
    }
    store = persist;
    head_seq = 0;
    next_seq = 1;
    for (page = 0; page < pages; page++) {          /* the head: the newest page */
        seq = page_seq(page);
        if (seq && (!head_seq || (int32_t)(seq - head_seq) > 0)) {
            head = page;
            head_seq = seq;
        }
        for (slot = 1; seq && slot < page_size / SLOT; slot++)
            if (read_slot(page, slot, rec) && !erased(rec) && record_ok(rec)
                    && (int32_t)(hsx_k_le32(rec + 8) - next_seq) >= 0)
                next_seq = hsx_k_le32(rec + 8) + 1;
    }
    if (!head_seq) {                                /* a new store */
        head = 0;
        head_seq = 1;
        if (!clean_page(0) || !write_header(0, head_seq)) {
            complain("value store: cannot be formatted; values will not persist");
            store = 0;
            return;
        }
    }
    for (append_slot = page_size / SLOT; append_slot > 1; append_slot--)
        if (!read_slot(head, append_slot - 1, rec) || !erased(rec))
            break;
    page = (head + 1) % pages;
    if (page_seq(page))                             /* a move the last power cut stopped */
        collect(page);
}

/* ---- debounced writes ---------------------------------------------------------------------------- */

static void commit(struct pending *p)
{
    p->used = 0;
    append_record(p->app, p->key, p->raw);
}

int hsx_k_store_load(uint32_t app, uint16_t key, uint16_t *raw)
{
    int i;
    if (!store)
        return 0;
    for (i = 0; i < HSX_PERSIST_PENDING; i++)
        if (pend[i].used && pend[i].app == app && pend[i].key == key) {
            *raw = pend[i].raw;
            return 1;
        }
    return newest(app, key, pages, raw);
}

void hsx_k_store_schedule(uint32_t app, uint16_t key, uint16_t raw, uint32_t debounce_ms)
{
    struct pending *p = 0, *earliest = 0;
    uint32_t now = hsx_k_now(), latest;
    int i;
    if (!store)
        return;
    for (i = 0; i < HSX_PERSIST_PENDING; i++) {
        if (pend[i].used && pend[i].app == app && pend[i].key == key)
            p = &pend[i];
        if (pend[i].used && (!earliest || (int32_t)(pend[i].due - earliest->due) < 0))
            earliest = &pend[i];
    }
    if (!debounce_ms) {                             /* at once */
        if (p)
            p->used = 0;
        append_record(app, key, raw);
        return;
    }
    latest = p ? p->latest : now + MAX_DEFER_PERIODS * debounce_ms;
    if (!p) {
        for (i = 0; i < HSX_PERSIST_PENDING && pend[i].used; i++)
            ;
        if (i == HSX_PERSIST_PENDING) {             /* no room to wait: the first due goes now */
            commit(earliest);
            i = (int)(earliest - pend);
        }
        p = &pend[i];
    }
    p->used = 1;
    p->app = app;
    p->key = key;
    p->raw = raw;
    p->latest = latest;
    p->due = (int32_t)(now + debounce_ms - latest) < 0 ? now + debounce_ms : latest;
}

int hsx_k_store_next_due(uint32_t *due)
{
    int i, found = 0;
    for (i = 0; i < HSX_PERSIST_PENDING; i++)
        if (pend[i].used && (!found || (int32_t)(pend[i].due - *due) < 0)) {
            *due = pend[i].due;
            found = 1;
        }
    return found;
}

void hsx_k_store_flush(int all)
{
    uint32_t now = hsx_k_now();
    int i;
    for (i = 0; i < HSX_PERSIST_PENDING; i++)
        if (pend[i].used && (all || hsx_k_due(pend[i].due, now)))
            commit(&pend[i]);
}

void hsx_exec_flush(void) { hsx_k_store_flush(1); }

HSX_COLD_CODE_END
