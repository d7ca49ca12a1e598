/* log.c - placeholder */
#include "config.h"
