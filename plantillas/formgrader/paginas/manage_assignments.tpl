{#- nbgrader 0.9.6's manage_assignments.tpl without inline script or handler: the page data come as JSON
    (base.tpl), read by curso_formgrader.js; every value is escaped (autoescape). -#}
{%- extends 'nbgrader/manage_assignments.tpl' -%}

{%- block head -%}
<script nonce="{{ csp_nonce }}" src="{{ base_url }}/formgrader/static/js/manage_assignments.js"></script>
{%- endblock head -%}

{%- block table_footer -%}
<tr>
  <td colspan="11">
    <span class="glyphicon glyphicon-plus" aria-hidden="true"></span>
    <a href="#" id="curso-nueva-tarea">Add new assignment...</a>
  </td>
</tr>
{%- endblock -%}
