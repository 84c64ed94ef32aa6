// runtop's entry point: wiring only. Commands live in app/, readers in readers/, the model in
// core/.
#include "app/cli.h"

int main(int argc, char** argv) {
    return runtop::run_cli(argc, argv);
}
