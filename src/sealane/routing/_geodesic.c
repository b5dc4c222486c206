/*
 * Geodesic distance on WGS84 by Vincenty's inverse method (Survey Review XXIII, 176, 1975).
 *
 * A route measures the few short legs between a port or a coordinate and the network on every
 * call; pyproj's vectorised calls cost more in overhead than these legs in arithmetic, and
 * importing pyproj alone costs a cold start as much as numpy. The iteration converges to well
 * under a millimetre of GeographicLib's answer except for nearly antipodal points, where it
 * may not converge at all: then the result is NaN and the caller asks pyproj
 * (sealane.routing.geodesy.distance_m), so no answer is ever silently wrong.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

static const double A = 6378137.0;         /* semi-major axis, metres */
static const double F = 1 / 298.257223563; /* flattening */
static const double RAD = 3.14159265358979323846 / 180.0;
enum { MAX_ROUNDS = 200 };

static double inverse(double lon1, double lat1, double lon2, double lat2)
{
    const double b = A * (1 - F);
    double L = remainder(lon2 - lon1, 360.0) * RAD;
    double u1 = atan((1 - F) * tan(lat1 * RAD)), u2 = atan((1 - F) * tan(lat2 * RAD));
    double sin_u1 = sin(u1), cos_u1 = cos(u1), sin_u2 = sin(u2), cos_u2 = cos(u2);
    double lambda = L, sin_sigma = 0, cos_sigma = 0, sigma = 0, cos2_alpha = 0, cos_2sm = 0;
    int round = 0;
    for (; round < MAX_ROUNDS; round++) {
        double sin_l = sin(lambda), cos_l = cos(lambda);
        double x = cos_u2 * sin_l, y = cos_u1 * sin_u2 - sin_u1 * cos_u2 * cos_l;
        sin_sigma = sqrt(x * x + y * y);
        if (sin_sigma == 0)
            return 0.0; /* the same point */
        cos_sigma = sin_u1 * sin_u2 + cos_u1 * cos_u2 * cos_l;
        sigma = atan2(sin_sigma, cos_sigma);
        double sin_alpha = cos_u1 * cos_u2 * sin_l / sin_sigma;
        cos2_alpha = 1 - sin_alpha * sin_alpha;
        /* On the equator cos2_alpha is 0 and the term is taken as 0. */
        cos_2sm = cos2_alpha != 0 ? cos_sigma - 2 * sin_u1 * sin_u2 / cos2_alpha : 0;
        double c = F / 16 * cos2_alpha * (4 + F * (4 - 3 * cos2_alpha));
        double previous = lambda;
        lambda = L + (1 - c) * F * sin_alpha
                         * (sigma + c * sin_sigma
                                        * (cos_2sm + c * cos_sigma * (-1 + 2 * cos_2sm * cos_2sm)));
        if (fabs(lambda - previous) < 1e-12)
            break;
    }
    if (round == MAX_ROUNDS || fabs(lambda) > 3.14159265358979323846)
        return NAN;
    double u_sq = cos2_alpha * (A * A - b * b) / (b * b);
    double big_a = 1 + u_sq / 16384 * (4096 + u_sq * (-768 + u_sq * (320 - 175 * u_sq)));
    double big_b = u_sq / 1024 * (256 + u_sq * (-128 + u_sq * (74 - 47 * u_sq)));
    double delta = big_b * sin_sigma
                   * (cos_2sm + big_b / 4
                                    * (cos_sigma * (-1 + 2 * cos_2sm * cos_2sm)
                                       - big_b / 6 * cos_2sm * (-3 + 4 * sin_sigma * sin_sigma)
                                             * (-3 + 4 * cos_2sm * cos_2sm)));
    return b * big_a * (sigma - delta);
}

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
    return PyFloat_FromDouble(inverse(v[0], v[1], v[2], v[3]));
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
