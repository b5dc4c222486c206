/*
 * Geodesic distance on WGS84 by Vincenty's inverse method (Survey Review XXIII, 176, 1975),
 * shared by the extensions that measure a route's short legs (_geodesic.c, _network.c).
 *
 * The iteration converges to well under a millimetre of GeographicLib's answer except for nearly
 * antipodal points, where it may not converge at all: then the result is NaN and the caller
 * falls back to pyproj, so no answer is ever silently wrong.
 */
#ifndef SEALANE_VINCENTY_H
#define SEALANE_VINCENTY_H
#include <math.h>

static const double VINCENTY_A = 6378137.0;         /* semi-major axis, metres */
static const double VINCENTY_F = 1 / 298.257223563; /* flattening */
static const double VINCENTY_RAD = 3.14159265358979323846 / 180.0;
enum { VINCENTY_MAX_ROUNDS = 200 };

static double vincenty_inverse(double lon1, double lat1, double lon2, double lat2)
{
    const double b = VINCENTY_A * (1 - VINCENTY_F);
    double L = remainder(lon2 - lon1, 360.0) * VINCENTY_RAD;
    double u1 = atan((1 - VINCENTY_F) * tan(lat1 * VINCENTY_RAD)), u2 = atan((1 - VINCENTY_F) * tan(lat2 * VINCENTY_RAD));
    double sin_u1 = sin(u1), cos_u1 = cos(u1), sin_u2 = sin(u2), cos_u2 = cos(u2);
    double lambda = L, sin_sigma = 0, cos_sigma = 0, sigma = 0, cos2_alpha = 0, cos_2sm = 0;
    int round = 0;
    for (; round < VINCENTY_MAX_ROUNDS; round++) {
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
        double c = VINCENTY_F / 16 * cos2_alpha * (4 + VINCENTY_F * (4 - 3 * cos2_alpha));
        double previous = lambda;
        lambda = L + (1 - c) * VINCENTY_F * sin_alpha
                         * (sigma + c * sin_sigma
                                        * (cos_2sm + c * cos_sigma * (-1 + 2 * cos_2sm * cos_2sm)));
        if (fabs(lambda - previous) < 1e-12)
            break;
    }
    if (round == VINCENTY_MAX_ROUNDS || fabs(lambda) > 3.14159265358979323846)
        return NAN;
    double u_sq = cos2_alpha * (VINCENTY_A * VINCENTY_A - b * b) / (b * b);
    double big_a = 1 + u_sq / 16384 * (4096 + u_sq * (-768 + u_sq * (320 - 175 * u_sq)));
    double big_b = u_sq / 1024 * (256 + u_sq * (-128 + u_sq * (74 - 47 * u_sq)));
    double delta = big_b * sin_sigma
                   * (cos_2sm + big_b / 4
                                    * (cos_sigma * (-1 + 2 * cos_2sm * cos_2sm)
                                       - big_b / 6 * cos_2sm * (-3 + 4 * sin_sigma * sin_sigma)
                                             * (-3 + 4 * cos_2sm * cos_2sm)));
    return b * big_a * (sigma - delta);
}

#endif
