/*
 * A leg's segments with the zero-length ones dropped, written into the three bytes objects a
 * route is made of (see _network.c, leg). Included by _network.c only.
 */
#ifndef SEALANE_TRIM_H
#define SEALANE_TRIM_H

#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

/* Segments shorter than this (metres) are duplicates of a point: legs.ZERO_LENGTH_M. */
static const double ZERO_LENGTH_M = 1e-6;

typedef struct {
    double *lonlat; /* points, two doubles each */
    double *length; /* one per segment */
    uint32_t *mask;
} Untrimmed;

/* Drop the empty segments of `u` (n points) into the three output bytes objects. */
static PyObject *trimmed(const Untrimmed *u, Py_ssize_t n)
{
    Py_ssize_t segments = n - 1, last_kept = 0;
    char *keep = malloc((size_t)n);
    if (!keep) return PyErr_NoMemory();
    int any = 0;
    keep[0] = 1;
    for (Py_ssize_t i = 0; i < segments; i++) {
        keep[i + 1] = u->length[i] > ZERO_LENGTH_M;
        any |= keep[i + 1];
    }
    if (!any) { /* nothing but the two ends, no distance between them */
        for (Py_ssize_t i = 1; i < n - 1; i++) keep[i] = 0;
    }
    if (!keep[n - 1]) { /* the end itself stays; the kept point before it goes */
        keep[n - 1] = 1;
        for (Py_ssize_t j = n - 2; j >= 0; j--) {
            if (keep[j]) {
                last_kept = j;
                break;
            }
        }
        if (last_kept > 0) keep[last_kept] = 0;
    }
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < n; i++) kept += keep[i];
    PyObject *coords = PyBytes_FromStringAndSize(NULL, kept * 2 * (Py_ssize_t)sizeof(double));
    PyObject *lengths = PyBytes_FromStringAndSize(NULL, (kept - 1) * (Py_ssize_t)sizeof(double));
    PyObject *masks = PyBytes_FromStringAndSize(NULL, (kept - 1) * (Py_ssize_t)sizeof(uint32_t));
    PyObject *result = NULL;
    if (coords && lengths && masks) {
        double *out_lonlat = (double *)PyBytes_AS_STRING(coords);
        double *out_length = (double *)PyBytes_AS_STRING(lengths);
        uint32_t *out_mask = (uint32_t *)PyBytes_AS_STRING(masks);
        Py_ssize_t k = -1; /* the output segment being summed */
        double rest = 0.0; /* the lengths merged into it, summed apart as numpy's reduceat does */
        for (Py_ssize_t i = 0; i < n; i++) {
            if (keep[i]) {
                if (k >= 0) out_length[k] += rest;
                rest = 0.0;
                out_lonlat[2 * (k + 1)] = u->lonlat[2 * i];
                out_lonlat[2 * (k + 1) + 1] = u->lonlat[2 * i + 1];
                if (i == n - 1) break;
                k++;
                out_length[k] = !any ? 0.0 : u->length[i];
                out_mask[k] = !any ? 0 : u->mask[i];
            } else if (any) {
                rest += u->length[i];
                out_mask[k] |= u->mask[i];
            }
        }
        result = PyTuple_Pack(3, coords, lengths, masks);
    }
    Py_XDECREF(coords);
    Py_XDECREF(lengths);
    Py_XDECREF(masks);
    free(keep);
    return result;
}

#endif
