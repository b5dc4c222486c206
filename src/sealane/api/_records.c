/*
 * Deflate (RFC 1951) for documents made of fixed-width records, such as the future positions.
 *
 * Two records of a voyage a minute apart differ in a few digits; the rest of each record (its
 * keys, the unchanged digits) repeats the record before it, exactly `width` bytes back. So the
 * only match searched for is at that one distance: a run of 3 or more bytes equal to the bytes
 * `width` before them is a match, anything else a literal, written with the fixed Huffman codes
 * (no tables to send, none to build). That costs a compare per byte and a table look-up per
 * symbol, a fraction of a general deflate's hash chains, and a stream of long matches inflates
 * faster than a general deflate's. Any deflate decoder reads it: it is a plain fixed-Huffman
 * block.
 *
 * deflate_records(data, history, width) writes `data` as one block (not the last) followed by
 * an empty stored block, so that it ends on a byte boundary (a sync flush) and the next piece's
 * block can follow it; `history` is what the stream held before `data` (its last `width` bytes
 * are matched against). The caller ends the stream with an empty final block.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_MATCH 258
#define MIN_MATCH 3
#define MAX_DISTANCE 32768

/* The fixed codes, bits reversed (deflate writes Huffman codes from their first bit), and for
 * each match length 3..258 its length code with the extra bits after it. Filled at import. */
static uint32_t LITERAL_CODE[256];
static uint8_t LITERAL_BITS[256];
static uint32_t LENGTH_CODE[MAX_MATCH + 1];
static uint8_t LENGTH_BITS[MAX_MATCH + 1];
static const uint16_t LENGTH_BASE[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t LENGTH_EXTRA[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t DISTANCE_BASE[30] = {1,    2,    3,    4,    5,    7,     9,     13,    17,  25,
                                           33,   49,   65,   97,   129,  193,   257,   385,   513, 769,
                                           1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t DISTANCE_EXTRA[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                           6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static uint32_t reversed(uint32_t code, int bits) {
    uint32_t out = 0;
    for (int i = 0; i < bits; i++, code >>= 1) out = (out << 1) | (code & 1);
    return out;
}

/* The fixed literal/length code of `symbol` (0..287), reversed, and its length in bits. */
static void fixed_code(int symbol, uint32_t *code, uint8_t *bits) {
    if (symbol < 144) *bits = 8, *code = reversed(0x30 + symbol, 8);
    else if (symbol < 256) *bits = 9, *code = reversed(0x190 + symbol - 144, 9);
    else if (symbol < 280) *bits = 7, *code = reversed(symbol - 256, 7);
    else *bits = 8, *code = reversed(0xC0 + symbol - 280, 8);
}

static void fill_tables(void) {
    for (int c = 0; c < 256; c++) fixed_code(c, &LITERAL_CODE[c], &LITERAL_BITS[c]);
    for (int length = MIN_MATCH; length <= MAX_MATCH; length++) {
        int k = 28;
        if (length < MAX_MATCH) {
            k = 0;
            while (k + 1 < 28 && LENGTH_BASE[k + 1] <= length) k++;
        }
        uint32_t code;
        uint8_t bits;
        fixed_code(257 + k, &code, &bits);
        LENGTH_CODE[length] = code | ((uint32_t)(length - LENGTH_BASE[k]) << bits);
        LENGTH_BITS[length] = (uint8_t)(bits + LENGTH_EXTRA[k]);
    }
}

typedef struct {
    uint8_t *out;
    uint64_t acc;
    int held; /* bits in acc */
} Bits;

/* Append `count` (at most 32) bits of `value`, first bit first. */
static inline void put(Bits *b, uint32_t value, int count) {
    b->acc |= (uint64_t)value << b->held;
    b->held += count;
    if (b->held >= 32) {
        for (int i = 0; i < 4; i++) *b->out++ = (uint8_t)(b->acc >> (8 * i));
        b->acc >>= 32;
        b->held -= 32;
    }
}

/* Write out the bits held, the last byte padded with zeros. */
static void align(Bits *b) {
    for (; b->held > 0; b->held -= 8, b->acc >>= 8) *b->out++ = (uint8_t)b->acc;
    b->held = 0;
    b->acc = 0;
}

/* How many bytes from a and b are equal, at most `most`. */
static inline Py_ssize_t equal_run(const uint8_t *a, const uint8_t *b, Py_ssize_t most) {
    Py_ssize_t k = 0;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; k + 8 <= most; k += 8) {
        uint64_t x, y;
        memcpy(&x, a + k, 8);
        memcpy(&y, b + k, 8);
        if (x != y) return k + (__builtin_ctzll(x ^ y) >> 3);
    }
#endif
    while (k < most && a[k] == b[k]) k++;
    return k;
}

/* The byte `width` before data[j]: in data, or in the `kept` bytes of history before it. */
static inline int earlier(const uint8_t *data, const uint8_t *history_end, Py_ssize_t kept,
                          Py_ssize_t j, Py_ssize_t width) {
    if (j >= width) return data[j - width];
    return j - width >= -kept ? history_end[j - width] : -1;
}

/* How many bytes from data[j] on (j < width) equal the bytes `width` before them, at most
 * n - j: the first in the history. */
static inline Py_ssize_t repeated(const uint8_t *data, Py_ssize_t n, const uint8_t *history_end,
                                  Py_ssize_t kept, Py_ssize_t j, Py_ssize_t width) {
    Py_ssize_t k = j;
    while (k < width && k < n && earlier(data, history_end, kept, k, width) == data[k]) k++;
    if (k < width) return k - j; /* a difference, or the end of data, before width */
    return k - j + equal_run(data + width, data, n - width);
}

/* Encode data[0:n] as fixed-Huffman symbols, matching at `width` back. (A literal at a time:
 * skipping ahead past a short run's difference cost more in mispredicted branches.) */
static void encode(Bits *b, const uint8_t *data, Py_ssize_t n, const uint8_t *history_end,
                   Py_ssize_t kept, Py_ssize_t width, uint32_t distance_code,
                   int distance_bits) {
    Py_ssize_t i = 0;
    while (i < n) {
        Py_ssize_t run = i >= width ? equal_run(data + i, data + i - width, n - i)
                                    : repeated(data, n, history_end, kept, i, width);
        if (run < MIN_MATCH) {
            put(b, LITERAL_CODE[data[i]], LITERAL_BITS[data[i]]);
            i++;
            continue;
        }
        i += run;
        while (run > 0) {
            Py_ssize_t length = run > MAX_MATCH ? MAX_MATCH : run;
            if (run - length > 0 && run - length < MIN_MATCH) length = run - MIN_MATCH;
            put(b, LENGTH_CODE[length], LENGTH_BITS[length]);
            put(b, distance_code, distance_bits);
            run -= length;
        }
    }
}

static PyObject *deflate_records(PyObject *self, PyObject *args) {
    Py_buffer data, history;
    Py_ssize_t width;
    PyObject *result = NULL;

    if (!PyArg_ParseTuple(args, "y*y*n:deflate_records", &data, &history, &width)) return NULL;
    if (width < 1 || width > MAX_DISTANCE) {
        PyErr_Format(PyExc_ValueError, "deflate_records: width %zd outside 1..%d", width,
                     MAX_DISTANCE);
        goto done;
    }
    Py_ssize_t kept = history.len < width ? history.len : width;
    if (data.len > (PY_SSIZE_T_MAX - 64 - kept) / 2) {
        PyErr_NoMemory();
        goto done;
    }
    /* At most 9 bits a byte (a literal; a match costs less a byte), the block's header and end,
     * the empty stored block, and a spare word for put(). */
    /* Only the pages written are touched: a few for a piece of positions. */
    result = PyBytes_FromStringAndSize(NULL, data.len + data.len / 8 + 16);
    if (!result) goto done;
    int code = 0;
    while (code + 1 < 30 && DISTANCE_BASE[code + 1] <= width) code++;
    uint32_t distance_code =
        reversed((uint32_t)code, 5) | ((uint32_t)(width - DISTANCE_BASE[code]) << 5);
    int distance_bits = 5 + DISTANCE_EXTRA[code];
    Bits bits = {(uint8_t *)PyBytes_AS_STRING(result), 0, 0};
    Py_BEGIN_ALLOW_THREADS
    put(&bits, 0x2, 3); /* not the last block; fixed Huffman codes (BTYPE 01) */
    encode(&bits, (const uint8_t *)data.buf, data.len,
           (const uint8_t *)history.buf + history.len, kept, width, distance_code, distance_bits);
    put(&bits, 0, 7);   /* end of block (symbol 256) */
    put(&bits, 0, 3);   /* an empty stored block, not the last: the sync flush */
    align(&bits);
    memcpy(bits.out, "\x00\x00\xff\xff", 4);
    bits.out += 4;
    Py_END_ALLOW_THREADS
    _PyBytes_Resize(&result, (Py_ssize_t)(bits.out - (uint8_t *)PyBytes_AS_STRING(result)));

done:
    PyBuffer_Release(&data);
    PyBuffer_Release(&history);
    return result;
}

static PyMethodDef methods[] = {
    {"deflate_records", deflate_records, METH_VARARGS,
     "deflate_records(data, history, width) -> bytes\n\n"
     "data as a raw deflate block of fixed Huffman codes whose only matches repeat the bytes "
     "width back, followed by an empty stored block (a sync flush); history is what the stream "
     "held before data."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_records", "Deflate for documents of fixed-width records.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__records(void) {
    fill_tables();
    return PyModule_Create(&module);
}
