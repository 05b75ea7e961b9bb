"""Exercise ``positional_encoding`` (lesson 2): its grader, in this folder (see ``grader_tests/ejercicios``)."""
