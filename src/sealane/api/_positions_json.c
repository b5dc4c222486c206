/*
 * The API's positions JSON array, written straight into one bytes object.
 *
 * The Python twin of this function is sealane.api.positions_json._positions_json_numpy; both
 * take the same arguments and must return the same bytes (tests/api/test_positions_json.py
 * compares them).
 * Every record is TEMPLATE with its fields filled in: numbers with fixed decimals, right-aligned
 * and padded on the left with spaces (JSON allows whitespace before a value). The arithmetic
 * repeats the numpy version operation by operation (nearbyint is numpy's rint: half to even), so
 * the two agree to the last digit. The columns are held buffers, so the GIL is released while the
 * records are written.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* One record; '_' marks a field. Must equal positions_json._TEMPLATE. */
static const char TEMPLATE[] =
    "{\"latitude\":___________,\"longitude\":___________,\"heading\":_______,"
    "\"timestamp\":\"____________________\",\"estimated\":true},";
#define WIDTH ((Py_ssize_t)(sizeof(TEMPLATE) - 1))
_Static_assert(sizeof(TEMPLATE) - 1 == 119, "record width changed: update the field offsets");
enum { AT_LAT = 12, AT_LON = 36, AT_HEADING = 58, AT_TIME = 79 };

/* "00" "01" ... "99": two digits per lookup halves the chain of divisions (filled at import). */
static char PAIRS[200];

/* Write `value` as fixed-point text from `p`: a sign slot, `int_digits` integer digits with the
 * leading zeros blanked, the point and `decimals` digits (positions_json._write_fixed); `scale` is
 * 10^decimals and `decimals` is even. Magnitudes beyond the field are clamped to `top` =
 * 10^(int_digits + decimals) - 1, which fits uint32. The caller has rejected NaN. */
static inline void write_fixed(char *p, double value, int int_digits, int decimals,
                               uint32_t scale, double top) {
    double rounded = nearbyint(fabs(value) * (double)scale);
    uint32_t scaled = (uint32_t)(rounded < top ? rounded : top);
    uint32_t whole = scaled / scale;
    uint32_t fraction = scaled % scale;
    char *point = p + 1 + int_digits;
    for (int i = decimals; i > 0; i -= 2, fraction /= 100) {
        memcpy(point + i - 1, PAIRS + 2 * (fraction % 100), 2);
    }
    *point = '.';
    int shown = 1; /* digits in the integer part */
    uint32_t limit = 10;
    for (int k = 1; k < int_digits; k++, limit *= 10) shown += whole >= limit;
    for (int i = 1; i <= int_digits; i++, whole /= 10) {
        point[-i] = i <= shown ? (char)('0' + whole % 10) : ' ';
    }
    p[0] = ' ';
    point[-1 - shown] = (value < 0) & (scaled > 0) ? '-' : ' '; /* a blank, or p[0] */
}

static inline void write_digits(char *p, int64_t value, int width) {
    for (int i = width - 1; i >= 0; i--) {
        p[i] = (char)('0' + value % 10);
        value /= 10;
    }
}

/* `YYYY-MM-DD` of day number `days` (since 1970-01-01) by Hinnant's civil_from_days, the same
 * era arithmetic as positions_json._civil_dates. Returns -1 when the year is outside 0000-9999. */
static int civil_date(int64_t days, char *out) {
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t day = doy - (153 * mp + 2) / 5 + 1;
    int64_t month = mp < 10 ? mp + 3 : mp - 9;
    int64_t year = yoe + era * 400 + (month <= 2);
    if (year < 0 || year > 9999) return -1;
    write_digits(out, year, 4);
    out[4] = '-';
    write_digits(out + 5, month, 2);
    out[7] = '-';
    write_digits(out + 8, day, 2);
    return 0;
}

/* The date of the last day written: a voyage spans a few dozen days over thousands of rows. */
typedef struct {
    int64_t day; /* INT64_MIN until the first date: no seconds value floors to that day */
    char text[10];
} DateCache;

/* Write `YYYY-MM-DDTHH:MM:SSZ` for Unix `seconds` from `p`; -1 when the year is out of range. */
static inline int write_time(char *p, int64_t seconds, DateCache *cache) {
    int64_t days = seconds / 86400;
    int64_t second_of_day = seconds % 86400;
    if (second_of_day < 0) { /* floor division, like numpy's divmod */
        second_of_day += 86400;
        days -= 1;
    }
    if (days != cache->day) {
        if (civil_date(days, cache->text) < 0) return -1;
        cache->day = days;
    }
    memcpy(p, cache->text, 10);
    p[10] = 'T';
    write_digits(p + 11, second_of_day / 3600, 2);
    p[13] = ':';
    write_digits(p + 14, second_of_day / 60 % 60, 2);
    p[16] = ':';
    write_digits(p + 17, second_of_day % 60, 2);
    p[19] = 'Z';
    return 0;
}

typedef struct {
    const double *lats, *lons, *headings;
    const int64_t *seconds;
    Py_ssize_t n;
} Columns;

/* Where and why writing stopped: `what` is NULL when every record was written. */
typedef struct {
    Py_ssize_t row;
    const char *what;
} Failure;

/* Write `n` records from `out`, the last one ending in ']' instead of ','. No Python calls. */
static Failure write_records(char *out, const Columns *c) {
    Failure failure = {0, NULL};
    DateCache cache = {INT64_MIN, {0}};
    for (Py_ssize_t i = 0; i < c->n; i++, out += WIDTH) {
        double lat = c->lats[i];
        double lon = nearbyint(c->lons[i] * 1e6) / 1e6; /* np.round(lons, 6) */
        if (lon >= 180.0) lon -= 360.0;                 /* keep [-180, 180) after rounding */
        /* np.round(h, 2) % 360.0: numpy's remainder takes the sign of the divisor, +0 for 0 */
        double heading = fmod(nearbyint(c->headings[i] * 100.0) / 100.0, 360.0);
        if (heading != 0.0) {
            if (heading < 0.0) heading += 360.0;
        } else {
            heading = 0.0;
        }
        failure.row = i;
        if (isnan(lat)) failure.what = "latitude is NaN";
        else if (isnan(lon)) failure.what = "longitude is NaN";
        else if (isnan(heading)) failure.what = "heading is NaN or infinite";
        if (failure.what) return failure;
        memcpy(out, TEMPLATE, WIDTH);
        write_fixed(out + AT_LAT, lat, 3, 6, 1000000, 999999999.0);
        write_fixed(out + AT_LON, lon, 3, 6, 1000000, 999999999.0);
        write_fixed(out + AT_HEADING, heading, 3, 2, 100, 99999.0);
        if (write_time(out + AT_TIME, c->seconds[i], &cache) < 0) {
            failure.what = "timestamp's year is outside 0000-9999";
            return failure;
        }
    }
    if (c->n > 0) out[-1] = ']';
    return failure;
}

/* Get a 1-D C-contiguous buffer of float64 (`integer` = 0) or int64 (`integer` = 1). */
static int get_column(PyObject *obj, Py_buffer *view, int integer, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    const char *format = view->format ? view->format : "B";
    int ok = integer ? (strcmp(format, "q") == 0 || strcmp(format, "l") == 0)
                     : strcmp(format, "d") == 0;
    if (!ok || view->itemsize != 8) {
        PyErr_Format(PyExc_TypeError, "render: %s must be %s, not buffer format '%s'", name,
                     integer ? "int64" : "float64", format);
    } else if (view->ndim != 1) {
        PyErr_Format(PyExc_ValueError, "render: %s must be one-dimensional, not %d-D", name,
                     view->ndim);
    } else {
        return 0;
    }
    PyBuffer_Release(view);
    return -1;
}

static const char *const NAMES[4] = {"lats", "lons", "headings", "seconds"};

/* Hold the four columns' buffers in `views` and describe them in `columns`; returns how many
 * buffers are held (4 on success; on failure, with an exception set, fewer or 4 when the
 * lengths differ: the caller releases that many). */
static int hold_columns(PyObject *const objects[4], Py_buffer views[4], Columns *columns,
                        const char *who) {
    int held = 0;
    for (; held < 4; held++) {
        if (get_column(objects[held], &views[held], held == 3, NAMES[held]) < 0) return held;
    }
    *columns = (Columns){views[0].buf, views[1].buf, views[2].buf, views[3].buf,
                         views[0].shape[0]};
    for (int k = 1; k < 4; k++) {
        if (views[k].shape[0] != columns->n) {
            PyErr_Format(PyExc_ValueError, "%s: %s has %zd values but lats has %zd", who,
                         NAMES[k], views[k].shape[0], columns->n);
            columns->n = -1;
            return held;
        }
    }
    return held;
}

static PyObject *render(PyObject *self, PyObject *args) {
    PyObject *objects[4];
    Py_buffer views[4], head, tail;
    int held = 0;
    PyObject *result = NULL;

    if (!PyArg_ParseTuple(args, "OOOOy*y*:render", &objects[0], &objects[1], &objects[2],
                          &objects[3], &head, &tail)) {
        return NULL;
    }
    Columns columns = {NULL, NULL, NULL, NULL, -1};
    held = hold_columns(objects, views, &columns, "render");
    if (held < 4 || columns.n < 0) goto done;
    if (columns.n > (PY_SSIZE_T_MAX - head.len - tail.len - 2) / WIDTH) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t body = columns.n > 0 ? 1 + columns.n * WIDTH : 2; /* "[" records or "[]" */
    result = PyBytes_FromStringAndSize(NULL, head.len + body + tail.len);
    if (!result) goto done;
    char *out = PyBytes_AS_STRING(result);
    Failure failure;
    Py_BEGIN_ALLOW_THREADS
    memcpy(out, head.buf, head.len);
    out[head.len] = '[';
    out[head.len + 1] = ']'; /* overwritten by the records, if any */
    failure = write_records(out + head.len + 1, &columns);
    memcpy(out + head.len + body, tail.buf, tail.len);
    Py_END_ALLOW_THREADS
    if (failure.what) {
        Py_CLEAR(result);
        PyErr_Format(PyExc_ValueError, "render: row %zd: %s", failure.row, failure.what);
    }

done:
    while (held > 0) PyBuffer_Release(&views[--held]);
    PyBuffer_Release(&head);
    PyBuffer_Release(&tail);
    return result;
}

/* head + records start..stop-1 + tail: a piece of render()'s array (without its '['), each
 * record ending in ',' but the array's last, which ends in ']'. */
static PyObject *render_rows(PyObject *self, PyObject *args) {
    PyObject *objects[4];
    Py_buffer views[4], head, tail;
    Py_ssize_t start, stop;
    int held = 0;
    PyObject *result = NULL;

    if (!PyArg_ParseTuple(args, "OOOOnny*y*:render_rows", &objects[0], &objects[1], &objects[2],
                          &objects[3], &start, &stop, &head, &tail)) {
        return NULL;
    }
    Columns columns = {NULL, NULL, NULL, NULL, -1};
    held = hold_columns(objects, views, &columns, "render_rows");
    if (held < 4 || columns.n < 0) goto done;
    if (start < 0 || stop > columns.n || start > stop) {
        PyErr_Format(PyExc_ValueError, "render_rows: rows %zd..%zd outside 0..%zd", start, stop,
                     columns.n);
        goto done;
    }
    Py_ssize_t count = stop - start;
    if (count > (PY_SSIZE_T_MAX - head.len - tail.len) / WIDTH) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, head.len + count * WIDTH + tail.len);
    if (!result) goto done;
    char *out = PyBytes_AS_STRING(result);
    Columns rows = {columns.lats + start, columns.lons + start, columns.headings + start,
                    columns.seconds + start, count};
    Failure failure;
    Py_BEGIN_ALLOW_THREADS
    memcpy(out, head.buf, head.len);
    failure = write_records(out + head.len, &rows);
    if (count > 0 && stop < columns.n) out[head.len + count * WIDTH - 1] = ',';
    memcpy(out + head.len + count * WIDTH, tail.buf, tail.len);
    Py_END_ALLOW_THREADS
    if (failure.what) {
        Py_CLEAR(result);
        PyErr_Format(PyExc_ValueError, "render: row %zd: %s", start + failure.row,
                     failure.what);
    }

done:
    while (held > 0) PyBuffer_Release(&views[--held]);
    PyBuffer_Release(&head);
    PyBuffer_Release(&tail);
    return result;
}

static PyMethodDef methods[] = {
    {"render", render, METH_VARARGS,
     "render(lats, lons, headings, seconds, head, tail) -> bytes\n\n"
     "head + the positions JSON array + tail; lats/lons/headings float64 degrees, seconds int64 "
     "Unix seconds, all one-dimensional and C-contiguous, of equal length."},
    {"render_rows", render_rows, METH_VARARGS,
     "render_rows(lats, lons, headings, seconds, start, stop, head, tail) -> bytes\n\n"
     "head + records start..stop-1 of render()'s array + tail: no '[', each record ending in "
     "',' but the array's last, which ends in ']'."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_positions_json", NULL, -1, methods};

PyMODINIT_FUNC PyInit__positions_json(void) {
    for (int i = 0; i < 100; i++) {
        PAIRS[2 * i] = (char)('0' + i / 10);
        PAIRS[2 * i + 1] = (char)('0' + i % 10);
    }
    return PyModule_Create(&module);
}
