/* walk.c - placeholder */
#include "config.h"
