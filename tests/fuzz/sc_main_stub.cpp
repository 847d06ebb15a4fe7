// libsystemc wants an sc_main; the fuzz targets never start a simulation.
extern "C" int sc_main(int, char**) { return 0; }
