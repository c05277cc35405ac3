/* The console's and data breakpoints' program: an array of structs changed through a
 * pointer, as in a first user's debugging session (issue 27). */
typedef struct {
    int qty;
    int price;
} Item;

Item stock[3] = {{5, 10}, {3, 20}, {8, 30}};
int orders;

static int take(Item *it, int count) {
    int left = it->qty - count;             /* line: take */
    it->qty = left;
    orders = orders + 1;
    return left;
}

int main(void) {
    int left = take(&stock[1], 1);          /* line: first take */
    left += take(&stock[0], 2);
    return left;                            /* line: return */
}
