/* time.h's calendar functions (HSX has no calendar clock: they work on given times,
 * in UTC): gmtime over leap years, centuries, negative times and the year-2038 edge,
 * every strftime conversion of the "C" locale, asctime, mktime's normalisation, and
 * difftime.  On the glibc host the program runs with TZ=UTC0 so that mktime agrees. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef __GLIBC__
extern int setenv(const char *name, const char *value, int replace);
extern void tzset(void);
#endif

int main(void) {
#ifdef __GLIBC__
    setenv("TZ", "UTC0", 1);
    tzset();
#endif
    static const long long times[] = {
        0, 86399, 86400, 951782400LL, 951868800LL, 1234567890LL, 2147483647LL, 2147483648LL,
        -1, -86401, 4102444800LL, 1704067199LL, 1735603200LL, 1609459200LL, 1230768000LL,
        1293753600LL, -2208988800LL, 253402300799LL, 1104537600LL, 1136073600LL,
    };
    char buf[256];
    for (unsigned i = 0; i < sizeof times / sizeof times[0]; i++) {
        time_t t = (time_t)times[i];
        struct tm parts, *tm = gmtime_r(&t, &parts);
        strftime(buf, sizeof buf, "%a %A %b %B %C %d %D %e %F %g %G %H %I %j %m %M %p %R %S "
                 "%T %u %U %V %w %W %y %Y %% %c|%x|%X|%r|%h|%n|%t|%Z", tm);
        printf("%lld: %s|%s", times[i], buf, asctime(tm));
        struct tm copy = *tm;
        copy.tm_wday = copy.tm_yday = -1;
        long long back = (long long)mktime(&copy);
        printf("  mktime %lld wday %d yday %d\n", back, copy.tm_wday, copy.tm_yday);
    }
    struct tm n = { 0 };
    n.tm_year = 100;
    n.tm_mon = 13;
    n.tm_mday = -5;
    n.tm_hour = 30;
    n.tm_min = -70;
    n.tm_sec = 3661;
    long long r = (long long)mktime(&n);
    printf("%lld %d-%d-%d %d:%d:%d %d %d\n", r, n.tm_year, n.tm_mon, n.tm_mday, n.tm_hour,
           n.tm_min, n.tm_sec, n.tm_wday, n.tm_yday);
    printf("%zu\n", strftime(buf, 5, "%Y-%m-%d", &n));     /* too small: 0 */
    printf("%zu [%s]\n", strftime(buf, 11, "%Y-%m-%d", &n), buf);
    printf("%g %g\n", difftime(100, 40), difftime(0, 86400));
    printf("%d\n", (int)sizeof(time_t) >= 8);
    return 0;
}
