// The element type, declared after the library templates.
namespace md {
struct Molecule {
  double r[3], f[3];
};
} // namespace md
