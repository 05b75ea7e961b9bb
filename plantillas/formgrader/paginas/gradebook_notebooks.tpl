{#- nbgrader 0.9.6's gradebook_notebooks.tpl without inline script or handler: the page data come as JSON
    (base.tpl), read by curso_formgrader.js; every value is escaped (autoescape). -#}
{%- extends 'nbgrader/gradebook_notebooks.tpl' -%}

{%- block head -%}
<script nonce="{{ csp_nonce }}" src="{{ base_url }}/formgrader/static/js/gradebook_notebooks.js"></script>
{%- endblock head -%}
