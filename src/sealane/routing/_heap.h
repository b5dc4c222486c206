/*
 * A binary min-heap of (key, node) items in a caller-owned array, shared by the search kernels
 * (_search.c, _hierarchy.c). The caller sizes the array for every push it can make.
 */
#ifndef SEALANE_HEAP_H
#define SEALANE_HEAP_H

#include <Python.h>
#include <stdint.h>

typedef struct {
    double key;
    int32_t node;
} HeapItem;

static inline void heap_push(HeapItem *heap, Py_ssize_t *size, double key, int32_t node) {
    Py_ssize_t i = (*size)++;
    while (i > 0) {
        Py_ssize_t parent = (i - 1) / 2;
        if (heap[parent].key <= key) break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i].key = key;
    heap[i].node = node;
}

static inline HeapItem heap_pop(HeapItem *heap, Py_ssize_t *size) {
    HeapItem top = heap[0];
    HeapItem last = heap[--(*size)];
    Py_ssize_t i = 0;
    for (;;) {
        Py_ssize_t child = 2 * i + 1;
        if (child >= *size) break;
        if (child + 1 < *size && heap[child + 1].key < heap[child].key) child++;
        if (last.key <= heap[child].key) break;
        heap[i] = heap[child];
        i = child;
    }
    if (*size > 0) heap[i] = last;
    return top;
}

#endif
