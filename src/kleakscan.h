/* kleakscan.h - placeholder */
