// A header with a function marked for the device by a macro that is empty
// for every compiler but nvcc (test/Rewrite/cuda.cpp, test/Sema/cuda.cpp).
#ifdef __CUDACC__
#define LIB_HD __host__ __device__
#else
#define LIB_HD
#endif
LIB_HD inline double libScale(double x) { return 2 * x; }
inline double libUnmarked(double x) { return 3 * x; }
constexpr double libConst(double x) { return x + 1; }
