"""Exercise ``multi_head`` (lesson 1): its grader, in this folder (see ``grader_tests/ejercicios``)."""
