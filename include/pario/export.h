/* pario/export.h: symbol visibility of the public C API. */
#ifndef PARIO_EXPORT_H
#define PARIO_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define PARIO_API __attribute__((visibility("default")))
#else
#define PARIO_API
#endif

#endif /* PARIO_EXPORT_H */
