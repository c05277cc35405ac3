/* The density benchmark's JSON program (benchmarks/density_bench.py): yyjson reads a
 * sensor report, the program sums and rewrites it with a mutable copy, and prints the
 * result and a few figures with printf's floats. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "yyjson.h"

static const char report[] =
    "{\"device\": \"probe-7\", \"firmware\": [1, 4, 2], \"calibrated\": true,"
    " \"readings\": [{\"t\": 0, \"celsius\": 21.5, \"ok\": true},"
    "                {\"t\": 60, \"celsius\": 22.25, \"ok\": true},"
    "                {\"t\": 120, \"celsius\": -40.0, \"ok\": false},"
    "                {\"t\": 180, \"celsius\": 23.125, \"ok\": true}],"
    " \"note\": \"line\\nbreak \\u00e9\"}";

int main(void)
{
    yyjson_doc *doc = yyjson_read(report, strlen(report), 0);
    if (!doc) {
        printf("parse error\n");
        return 1;
    }
    yyjson_val *root = yyjson_doc_get_root(doc);
    yyjson_val *readings = yyjson_obj_get(root, "readings");
    double sum = 0;
    int good = 0;
    size_t idx, max;
    yyjson_val *reading;
    yyjson_arr_foreach(readings, idx, max, reading) {
        if (yyjson_get_bool(yyjson_obj_get(reading, "ok"))) {
            sum += yyjson_get_num(yyjson_obj_get(reading, "celsius"));
            good++;
        }
    }
    printf("%s: %d good readings, mean %.3f C\n",
           yyjson_get_str(yyjson_obj_get(root, "device")), good, good ? sum / good : 0.0);

    yyjson_mut_doc *copy = yyjson_doc_mut_copy(doc, NULL);
    yyjson_mut_val *top = yyjson_mut_doc_get_root(copy);
    yyjson_mut_obj_add_real(copy, top, "mean", good ? sum / good : 0.0);
    yyjson_mut_obj_add_int(copy, top, "good", good);
    yyjson_mut_obj_remove_key(top, "note");
    size_t length;
    char *text = yyjson_mut_write(copy, YYJSON_WRITE_PRETTY, &length);
    printf("%s\n%u bytes\n", text ? text : "(write failed)", (unsigned)length);
    free(text);
    yyjson_mut_doc_free(copy);
    yyjson_doc_free(doc);
    return 0;
}
