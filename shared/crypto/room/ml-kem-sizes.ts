/** ML-KEM-768 sizes (FIPS 203, Table 3), apart from the code, so schemas need not load ML-KEM. */

/** ML-KEM-768 encapsulation (public) key length. */
export const ML_KEM_768_PUBLIC_KEY_BYTES = 1184;
/** ML-KEM-768 decapsulation (secret) key length. */
export const ML_KEM_768_SECRET_KEY_BYTES = 2400;
