/* journal-native.c - placeholder until its owner lands it. */
#include "config.h"
#include "kleak.h"
