// GMP's numbers that free themselves, for the tests against GMP.
#pragma once
#include <gmp.h>

namespace {  // each test file its own copy

struct Mpz {
  Mpz() { mpz_init(v); }
  ~Mpz() { mpz_clear(v); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
  mpz_t v;
};

struct Mpq {
  Mpq() { mpq_init(v); }
  ~Mpq() { mpq_clear(v); }
  Mpq(const Mpq&) = delete;
  Mpq& operator=(const Mpq&) = delete;
  mpq_t v;
};

}  // namespace
