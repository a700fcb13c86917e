// The plugin's arguments: each mistake is an error naming what it expects.
// RUN: %soaview_verify -fplugin-arg-soaview-bogus %s -DBOGUS
// RUN: %soaview_verify -fplugin-arg-soaview-no-warn=nonsense %s -DNOWARN
// RUN: %soaview_verify -fplugin-arg-soaview-backend=cuda %s -DCUDA
// RUN: rm -rf %t.file && touch %t.file
// RUN: %soaview_verify -fplugin-arg-soaview-dump=%t.file/out.cpp %s -DDUMP
// An unknown value of an argument, or of SOAVIEW_CONVERT, lists the values.
// RUN: %soaview_verify -fplugin-arg-soaview-convert=alwyas %s -DVALUE
// RUN: %soaview_verify -fplugin-arg-soaview-convert %s -DNOVALUE
// RUN: %soaview_verify -fplugin-arg-soaview-remarks=yes %s -DSWITCH
// RUN: env SOAVIEW_CONVERT=alwyas %soaview_verify %s -DENV
#if defined(BOGUS)
// expected-error@*:* {{unknown plugin argument 'bogus'; expected 'remarks', 'dump=FILE', 'convert=profitable|always|never', 'backend=openmp|cuda', 'device-heap=on|off', 'bare-kernels=on|off', 'annotate=written|all' or 'no-warn=FLAG'}}
#elif defined(NOWARN)
// expected-error@*:* {{unknown warning flag 'nonsense' in 'no-warn=nonsense'; soaview's warnings: nothing-offloaded, empty-view, never-converts, region-empty, dynamic-type}}
#elif defined(CUDA)
// expected-error@*:* {{'backend=cuda' writes CUDA source for nvcc; give it a file with -fplugin-arg-soaview-dump=FILE.cu}}
#elif defined(VALUE)
// expected-error@*:* {{unknown value 'alwyas' of plugin argument 'convert'; expected 'profitable', 'always' or 'never'}}
#elif defined(NOVALUE)
// expected-error@*:* {{unknown value '' of plugin argument 'convert'; expected 'profitable', 'always' or 'never'}}
#elif defined(SWITCH)
// expected-error@*:* {{unknown plugin argument 'remarks=yes'; expected 'remarks', 'dump=FILE'}}
#elif defined(ENV)
// expected-error@*:* {{unknown value 'alwyas' of environment variable SOAVIEW_CONVERT; expected 'profitable', 'always' or 'never'}}
#else
// expected-error-re@*:* {{cannot write dump file '{{.*}}out.cpp': Not a directory}}
#endif
int x;
