"""Other tools calling our judges: an inspect_ai task and scorer (:mod:`.inspect_ai`,
``pip install 'quantum-codegen-eval[inspect]'``) and an lm-eval task folder (:mod:`.lm_eval`,
the ``[lm-eval]`` extra). Neither tool is imported by the rest of the package."""
