/* time.h: the clock from the executive (milliseconds), no calendar clock, and the
 * calendar arithmetic in UTC (days from civil dates by Howard Hinnant's algorithm). */
#include <hsx_exec.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Milliseconds since the executive started, or -1 where there is no executive. */
clock_t clock(void) {
    unsigned ms = hsx_time_ms();
    return ms >= 0xFFFFFF00u ? (clock_t)-1 : (clock_t)(ms & 0x7FFFFFFF);
}

time_t time(time_t *t) {
    if (t)
        *t = (time_t)-1;
    return (time_t)-1;
}

int timespec_get(struct timespec *ts, int base) {
    (void)ts, (void)base;
    return 0;
}

double difftime(time_t end, time_t start) { return (double)(end - start); }

/* Days from 1970-01-01 to year-month-day (proleptic Gregorian, month 1..12). */
static long long days_from_civil(long long y, int m, int d) {
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int leap(long long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static long long floor_div(long long a, long long b) {
    return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

struct tm *gmtime_r(const time_t *t, struct tm *out) {
    long long days = floor_div(*t, 86400), secs = *t - days * 86400;
    long long z = days + 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    int d = (int)(doy - (153 * mp + 2) / 5 + 1);
    int m = (int)(mp < 10 ? mp + 3 : mp - 9);
    long long y = yoe + era * 400 + (m <= 2);
    if (y - 1900 > 0x7FFFFFFF || y - 1900 < -0x7FFFFFFF)
        return NULL;
    out->tm_year = (int)(y - 1900);
    out->tm_mon = m - 1;
    out->tm_mday = d;
    out->tm_hour = (int)(secs / 3600);
    out->tm_min = (int)(secs / 60 % 60);
    out->tm_sec = (int)(secs % 60);
    out->tm_wday = (int)((days % 7 + 11) % 7);          /* 1970-01-01 was a Thursday */
    out->tm_yday = (int)(days - days_from_civil(y, 1, 1));
    out->tm_isdst = 0;
    return out;
}

struct tm *gmtime(const time_t *t) {
    static struct tm result;
    return gmtime_r(t, &result);
}

struct tm *localtime_r(const time_t *t, struct tm *out) { return gmtime_r(t, out); }
struct tm *localtime(const time_t *t) { return gmtime(t); }

/* Normalises every field (months past 11, negative days, ...) and fills wday/yday. */
time_t mktime(struct tm *tm) {
    long long mon = tm->tm_mon, year = tm->tm_year + 1900LL + floor_div(mon, 12);
    mon -= floor_div(mon, 12) * 12;
    long long days = days_from_civil(year, (int)mon + 1, 1) + tm->tm_mday - 1;
    time_t t = days * 86400 + tm->tm_hour * 3600LL + tm->tm_min * 60LL + tm->tm_sec;
    if (!gmtime_r(&t, tm))
        return (time_t)-1;
    return t;
}

static const char *const day_names[] = { "Sunday", "Monday", "Tuesday", "Wednesday",
                                         "Thursday", "Friday", "Saturday" };
static const char *const month_names[] = { "January", "February", "March", "April", "May",
                                           "June", "July", "August", "September",
                                           "October", "November", "December" };

char *asctime(const struct tm *tm) {
    static char buf[64];
    snprintf(buf, sizeof buf, "%.3s %.3s%3d %.2d:%.2d:%.2d %d\n",
             day_names[tm->tm_wday % 7], month_names[tm->tm_mon % 12], tm->tm_mday,
             tm->tm_hour, tm->tm_min, tm->tm_sec, 1900 + tm->tm_year);
    return buf;
}

char *ctime(const time_t *t) {
    struct tm *tm = localtime(t);
    return tm ? asctime(tm) : NULL;
}

/* ISO 8601 week-based year and week number (%G, %V). */
static int iso_week(const struct tm *tm, int *year) {
    int y = tm->tm_year + 1900;
    int wday = (tm->tm_wday + 6) % 7;                   /* Monday = 0 */
    int week = (tm->tm_yday - wday + 10) / 7;
    if (week < 1) {
        y--;
        int prev_yday = tm->tm_yday + 365 + leap(y);
        week = (prev_yday - wday + 10) / 7;
    } else if (week == 53) {
        int days_in_year = 365 + leap(y);
        if (tm->tm_yday - wday + 3 >= days_in_year) {  /* Thursday of the week is next year */
            week = 1;
            y++;
        }
    }
    *year = y;
    return week;
}

struct out {
    char *buf;
    size_t size, n;
};

static void emit(struct out *o, const char *s) {
    for (; *s; s++) {
        if (o->n + 1 < o->size)
            o->buf[o->n] = *s;
        o->n++;
    }
}

static void number(struct out *o, const char *format, long long v) {
    char tmp[24];
    snprintf(tmp, sizeof tmp, format, v);
    emit(o, tmp);
}

static void abbreviated(struct out *o, const char *name) {
    char s[4] = { name[0], name[1], name[2], 0 };
    emit(o, s);
}

static void format_tm(struct out *o, const char *fmt, const struct tm *tm) {
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            char one[2] = { *fmt, 0 };
            emit(o, one);
            continue;
        }
        char c = *++fmt;
        if (c == 'E' || c == 'O')                       /* the "C" locale ignores them */
            c = *++fmt;
        int hour12 = tm->tm_hour % 12 ? tm->tm_hour % 12 : 12;
        long long year = tm->tm_year + 1900LL;
        int iso_year;
        switch (c) {
        case 'a': abbreviated(o, day_names[tm->tm_wday % 7]); break;
        case 'A': emit(o, day_names[tm->tm_wday % 7]); break;
        case 'b':
        case 'h': abbreviated(o, month_names[tm->tm_mon % 12]); break;
        case 'B': emit(o, month_names[tm->tm_mon % 12]); break;
        case 'c': format_tm(o, "%a %b %e %H:%M:%S %Y", tm); break;
        case 'C': number(o, "%02lld", floor_div(year, 100)); break;
        case 'd': number(o, "%02lld", tm->tm_mday); break;
        case 'D': format_tm(o, "%m/%d/%y", tm); break;
        case 'e': number(o, "%2lld", tm->tm_mday); break;
        case 'F': format_tm(o, "%Y-%m-%d", tm); break;
        case 'g':
            iso_week(tm, &iso_year);
            number(o, "%02lld", ((iso_year % 100) + 100) % 100);
            break;
        case 'G': iso_week(tm, &iso_year); number(o, "%lld", iso_year); break;
        case 'H': number(o, "%02lld", tm->tm_hour); break;
        case 'I': number(o, "%02lld", hour12); break;
        case 'j': number(o, "%03lld", tm->tm_yday + 1); break;
        case 'm': number(o, "%02lld", tm->tm_mon + 1); break;
        case 'M': number(o, "%02lld", tm->tm_min); break;
        case 'n': emit(o, "\n"); break;
        case 'p': emit(o, tm->tm_hour < 12 ? "AM" : "PM"); break;
        case 'r': format_tm(o, "%I:%M:%S %p", tm); break;
        case 'R': format_tm(o, "%H:%M", tm); break;
        case 'S': number(o, "%02lld", tm->tm_sec); break;
        case 't': emit(o, "\t"); break;
        case 'T': format_tm(o, "%H:%M:%S", tm); break;
        case 'u': number(o, "%lld", tm->tm_wday ? tm->tm_wday : 7); break;
        case 'U': number(o, "%02lld", (tm->tm_yday + 7 - tm->tm_wday) / 7); break;
        case 'V': number(o, "%02lld", iso_week(tm, &iso_year)); break;
        case 'w': number(o, "%lld", tm->tm_wday); break;
        case 'W': number(o, "%02lld", (tm->tm_yday + 7 - (tm->tm_wday + 6) % 7) / 7); break;
        case 'x': format_tm(o, "%m/%d/%y", tm); break;
        case 'X': format_tm(o, "%H:%M:%S", tm); break;
        case 'y': number(o, "%02lld", ((year % 100) + 100) % 100); break;
        case 'Y': number(o, "%lld", year); break;
        case 'z': emit(o, "+0000"); break;
        case 'Z': emit(o, "GMT"); break;
        case '%': emit(o, "%"); break;
        case 0: return;
        default: {
            char s[3] = { '%', c, 0 };
            emit(o, s);
        }
        }
    }
}

/* The length written, or 0 when it (with the terminating zero) does not fit. */
size_t strftime(char *buf, size_t size, const char *fmt, const struct tm *tm) {
    struct out o = { buf, size, 0 };
    format_tm(&o, fmt, tm);
    if (o.n >= size) {
        if (size)
            buf[0] = 0;
        return 0;
    }
    buf[o.n] = 0;
    return o.n;
}
