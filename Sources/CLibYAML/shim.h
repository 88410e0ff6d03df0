#ifndef GITBAY_CLIBYAML_SHIM_H
#define GITBAY_CLIBYAML_SHIM_H

#include <yaml.h>

#endif
