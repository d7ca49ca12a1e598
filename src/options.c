/* options.c - placeholder */
#include "config.h"
