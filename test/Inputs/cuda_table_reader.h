// A function marked for the device that reads a constant table its
// includer defines (test/Sema/cuda.cpp): soaview-translate does not rewrite
// this header, so it cannot name the table's device copy here.
LIB_HD inline double readerLookup(int i) { return kReadByHeader[i]; }
