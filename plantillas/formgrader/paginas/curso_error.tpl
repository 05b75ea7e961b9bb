{#- Errors other than 403/500/502 (nbgrader's pages) in formgrader's frame, instead of Jupyter's
    error page: the status and its standard reason, nothing from the URL. -#}
{%- extends 'base.tpl' -%}

{%- block title -%}
{{ error_code }} {{ razon }}
{%- endblock -%}

{%- block body -%}
<div class="panel-body">
Nothing here: {{ error_code }} {{ razon }}.
<span id="error-{{ error_code }}"></span>
</div>
{%- endblock -%}
