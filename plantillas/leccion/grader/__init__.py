"""Exercise ``@@FUNCION@@`` (lesson @@NUMERO@@): its grader, in this folder (see ``grader_tests/ejercicios``)."""
