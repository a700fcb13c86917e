// The plugin's arguments: each mistake is an error naming what it expects.
// RUN: %soaview_verify -fplugin-arg-soaview-bogus %s -DBOGUS
// RUN: %soaview_verify -fplugin-arg-soaview-no-warn=nonsense %s -DNOWARN
// RUN: %soaview_verify -fplugin-arg-soaview-backend=cuda %s -DCUDA
// RUN: rm -rf %t.file && touch %t.file
// RUN: %soaview_verify -fplugin-arg-soaview-dump=%t.file/out.cpp %s -DDUMP
#if defined(BOGUS)
// expected-error@*:* {{unknown plugin argument 'bogus'; expected 'remarks', 'dump=FILE', 'convert=always|profitable', 'backend=openmp|cuda', 'device-heap=on|off', 'annotate=all|written' or 'no-warn=FLAG'}}
#elif defined(NOWARN)
// expected-error@*:* {{unknown warning flag 'nonsense' in 'no-warn=nonsense'; soaview's warnings: empty-view}}
#elif defined(CUDA)
// expected-error@*:* {{'backend=cuda' writes CUDA source for nvcc; give it a file with -fplugin-arg-soaview-dump=FILE.cu}}
#else
// expected-error-re@*:* {{cannot write dump file '{{.*}}out.cpp': Not a directory}}
#endif
int x;
