/* print-json.c - placeholder */
#include "config.h"
