/*
 * Geodesic distance on WGS84 by Vincenty's inverse method (_vincenty.h), for Python.
 *
 * A route measures the few short legs between a port or a coordinate and the network on every
 * call; pyproj's vectorised calls cost more in overhead than these legs in arithmetic, and
 * importing pyproj alone costs a cold start as much as numpy. Where the iteration does not
 * converge (nearly antipodal points) the result is NaN and the caller asks pyproj
 * (sealane.routing.geodesy.distance_m), so no answer is ever silently wrong.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

#include "_vincenty.h"

static PyObject *inverse_m(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    double v[4];
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "inverse_m(lon1, lat1, lon2, lat2) takes 4 numbers");
        return NULL;
    }
    for (int i = 0; i < 4; i++) {
        v[i] = PyFloat_AsDouble(args[i]);
        if (v[i] == -1.0 && PyErr_Occurred())
            return NULL;
    }
    return PyFloat_FromDouble(vincenty_inverse(v[0], v[1], v[2], v[3]));
}

static PyMethodDef METHODS[] = {
    {"inverse_m", (PyCFunction)(void (*)(void))inverse_m, METH_FASTCALL,
     "Geodesic distance in metres between two (lon, lat) points on WGS84; NaN when "
     "Vincenty's iteration does not converge (nearly antipodal points)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_geodesic", "WGS84 geodesic distance (Vincenty's inverse method).",
    -1, METHODS,
};

PyMODINIT_FUNC PyInit__geodesic(void) { return PyModule_Create(&MODULE); }
