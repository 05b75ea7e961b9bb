{#- nbgrader 0.9.6's gradebook_notebook_submissions.tpl without inline script or handler: the page data come as JSON
    (base.tpl), read by curso_formgrader.js; every value is escaped (autoescape). -#}
{%- extends 'nbgrader/gradebook_notebook_submissions.tpl' -%}

{%- block head -%}
<script nonce="{{ csp_nonce }}" src="{{ base_url }}/formgrader/static/js/gradebook_notebook_submissions.js"></script>
{%- endblock head -%}

{%- block messages -%}
<button id="toggle_names">Show All Names</button>
{%- endblock -%}
