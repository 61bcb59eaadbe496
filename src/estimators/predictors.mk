# predictors.mk: SP 800-90B 6.3.7-6.3.10 predictor estimators (included by Makefile.am)
