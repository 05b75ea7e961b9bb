{#- nbgrader 0.9.6's gradebook_assignments.tpl without inline script or handler: the page data come as JSON
    (base.tpl), read by curso_formgrader.js; every value is escaped (autoescape). -#}
{%- extends 'nbgrader/gradebook_assignments.tpl' -%}

{%- block head -%}
<script nonce="{{ csp_nonce }}" src="{{ base_url }}/formgrader/static/js/gradebook_assignments.js"></script>
{%- endblock head -%}
