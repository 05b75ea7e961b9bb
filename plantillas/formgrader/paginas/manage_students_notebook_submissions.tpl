{#- nbgrader 0.9.6's manage_students_notebook_submissions.tpl without inline script or handler: the page data come as JSON
    (base.tpl), read by curso_formgrader.js; every value is escaped (autoescape). -#}
{%- extends 'nbgrader/manage_students_notebook_submissions.tpl' -%}

{%- block head -%}
<script nonce="{{ csp_nonce }}" src="{{ base_url }}/formgrader/static/js/manage_students_notebook_submissions.js"></script>
{%- endblock head -%}
