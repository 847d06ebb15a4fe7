// The tmasim command: the CLI of main.cpp (a library, which the Python module calls as well).
int tmasim_cli_main(int argc, char** argv);

int main(int argc, char** argv) { return tmasim_cli_main(argc, argv); }
