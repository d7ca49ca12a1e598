/* print-text.c - placeholder */
#include "config.h"
