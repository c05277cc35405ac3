/* time.h: HSX has no calendar clock, so time() and timespec_get() report that the
 * time is unavailable ((time_t)-1, 0); clock() counts milliseconds of the executive's
 * clock (CLOCKS_PER_SEC 1000).  The calendar functions compute in UTC (localtime is
 * gmtime, mktime the inverse of gmtime); strftime is the "C" locale's. */
#ifndef _HSX_TIME_H
#define _HSX_TIME_H
#include <stddef.h>

#define CLOCKS_PER_SEC 1000L
#define TIME_UTC 1

typedef long clock_t;
typedef long long time_t;

struct tm {
    int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst;
};
struct timespec {
    time_t tv_sec;
    long tv_nsec;
};

clock_t clock(void);
time_t time(time_t *t);
int timespec_get(struct timespec *ts, int base);
double difftime(time_t end, time_t start);
time_t mktime(struct tm *tm);
struct tm *gmtime(const time_t *t);
struct tm *gmtime_r(const time_t *t, struct tm *out);
struct tm *localtime(const time_t *t);
struct tm *localtime_r(const time_t *t, struct tm *out);
char *asctime(const struct tm *tm);
char *ctime(const time_t *t);
size_t strftime(char *buf, size_t size, const char *fmt, const struct tm *tm);
#endif
