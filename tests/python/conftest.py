# Every rank runs the same tests; only rank 0 reports verbosely.
import pario

pario.init()
