// Tiny stand-ins (our code) for the SWIFT infrastructure that the hydro
// headers' message()/warning()/error() macros reference; SWIFT defines them
// in clocks.c and engine.c, which the driver does not build.
extern "C++" {
const char *clocks_get_timesincestart(void) { return "[swift-step]"; }
int engine_rank = 0;
}
