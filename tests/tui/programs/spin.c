/* The debugger tests' endless program: a loop to pause (it never stops by itself) and
 * a struct local to expand. */
struct item {
    int id;
    int qty;
};

volatile int ticks;

static void tick(struct item *it) {
    it->qty = it->qty + 1;
    ticks = ticks + 1;
}

int main(void) {
    struct item it = {7, 0};
    for (;;)
        tick(&it);
    return 0;
}
